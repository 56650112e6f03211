#!/usr/bin/env bash
# dambit hub through a pipe (tests/hub_test.py). Usage: hub_test.sh path/to/dambit
set -u
exec python3 "$(dirname "$0")/hub_test.py" "$1"
