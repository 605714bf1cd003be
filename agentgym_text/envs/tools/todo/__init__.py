"""Todo: a Todoist-like agenda in a private SQLite database per episode (stdlib ``sqlite3``, in memory)."""
