#!/bin/sh
# Headless Chromium for the report-rendering test (tests/test_report.py skips without it).
# Installs the Debian package only when /usr/bin/chromium is missing; uses sudo when not root.
set -e
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
fi
echo "installing chromium (headless report check)"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
