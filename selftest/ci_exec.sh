#!/bin/sh
# prove --exec for make check-ci: runs a selftest on the sanitizer build, or on the normal one when its header says '# sb-san: skip'.
# (make check-ci sets SB_CI_BUILD, SB_CI_SAN_BUILD and SB_CI_SAN; the sanitizers' options are set for both)
set -eu
if grep -q '^# sb-san: skip' "$1"; then
	SB_BUILD=$SB_CI_BUILD SB_SAN=''
else
	SB_BUILD=$SB_CI_SAN_BUILD SB_SAN=$SB_CI_SAN
fi
export SB_BUILD SB_SAN
exec "$1"
