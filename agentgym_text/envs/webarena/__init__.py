"""WebArena (AgentBoard's web task): a real headless Chromium on sites the package serves, or on your own deployment."""
