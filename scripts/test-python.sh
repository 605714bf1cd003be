#!/bin/sh
# `make test-pythons`, one Python: a fresh venv of Python $1 (e.g. 3.13), every extra of `all` and `dev` installed
# from wheels (the engines that ship only their sources, listed in SOURCE_BUILDS, build as they must), then a sample
# of the suite: the registry test and one id of every family solved by its expert.
set -e
version="$1"
SOURCE_BUILDS="${SOURCE_BUILDS:-jericho,fast-downward-textworld}"
python="python$version"
if ! "$python" -c "" 2>/dev/null && command -v pyenv >/dev/null 2>&1; then
    python="$(pyenv prefix "$version" 2>/dev/null)/bin/python$version"  # installed but not pyenv's selection
fi
if ! "$python" -c "" 2>/dev/null; then
    echo "test-pythons: no Python $version here (install it, e.g. 'pyenv install $version')" >&2
    exit 1
fi
venv=".venv-py$version"
rm -rf "$venv"
"$python" -m venv "$venv"
bin="$PWD/$venv/bin"
start=$(date +%s)
"$bin/python" -m pip install -q --upgrade pip
PATH="$bin:$PATH" "$bin/python" -m pip install -q --only-binary :all: --no-binary "$SOURCE_BUILDS" -e ".[all,dev]"
echo "test-pythons: $("$bin/python" --version) installed .[all,dev] in $(($(date +%s) - start)) s"
"$bin/python" -m pytest -q -p no:cacheprovider -o addopts="--timeout=900" \
    tests/test_registry.py tests/test_family_sample.py
