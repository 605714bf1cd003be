#!/bin/sh
# System packages the project needs, installed with apt-get only when missing:
#   a headless JRE (ScienceWorld's engine), Chromium (WebArena and the report-rendering test), bubblewrap
#   (the sandbox of AgentBench/OS-v0), PostgreSQL and MariaDB (the tests of AgentBench/DB-v0 on real servers).
set -e
missing=""
command -v java >/dev/null 2>&1 || missing="$missing default-jre-headless"
[ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v bwrap >/dev/null 2>&1 || missing="$missing bubblewrap"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$missing postgresql"
command -v mariadb-install-db >/dev/null 2>&1 || missing="$missing mariadb-server"
[ -z "$missing" ] && exit 0
SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
fi
echo "installing system packages:$missing"
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
