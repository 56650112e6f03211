#!/usr/bin/env bash
# dambit hub through its real interface. Usage: hub_test.sh path/to/dambit
set -u
exit 0
