#!/bin/sh
# System packages the project needs, installed with apt-get only when missing:
#   a headless JDK (ScienceWorld's engine, and javac for the class that makes AgentBoard's step inside its JVM),
#   Chromium (the report-rendering test) and its headless shell (WebArena's browser), bubblewrap (the sandbox of
#   AgentBench/OS-v0), PostgreSQL and MariaDB (the tests of AgentBench/DB-v0 on real servers), mmdebstrap and
#   uidmap (the Debian root filesystem that AgentBench/OS-v0 plays AgentBench's own items on; as root, a subordinate
#   uid/gid range for root is added to /etc/subuid and /etc/subgid when root has none).
set -e
if [ "$(id -u)" = 0 ]; then
    for file in /etc/subuid /etc/subgid; do
        grep -q '^root:' "$file" 2>/dev/null || echo 'root:1879048192:65536' >> "$file"
    done
fi
missing=""
command -v java >/dev/null 2>&1 || missing="$missing default-jre-headless"
command -v javac >/dev/null 2>&1 || missing="$missing default-jdk-headless"
[ -x /usr/bin/chromium ] || missing="$missing chromium"
[ -x /usr/bin/chromium-headless-shell ] || missing="$missing chromium-headless-shell"
command -v bwrap >/dev/null 2>&1 || missing="$missing bubblewrap"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$missing postgresql"
command -v mariadb-install-db >/dev/null 2>&1 || missing="$missing mariadb-server"
command -v mmdebstrap >/dev/null 2>&1 || missing="$missing mmdebstrap"
command -v newuidmap >/dev/null 2>&1 || missing="$missing uidmap"
[ -z "$missing" ] && exit 0
SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
fi
echo "installing system packages:$missing"
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
