# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by scripts/classics/*: where the programs are, the size of the
# run (--quick for the test suite, default under 2 minutes, --full for
# the original post's sizes), and what this machine is.
# shellcheck shell=sh
# shellcheck disable=SC2034 # mode is for the scripts that source it

top=$(cd "$(dirname "$0")/../.." && pwd)
FORKTIME=${FORKTIME:-$top/forktime/forktime}
CONTEST=${CONTEST:-$top/contest/contest}
FORKBOMB=${FORKBOMB:-$top/forkbomb/forkbomb}
me=$(basename "$0")
mode=default

for arg in "$@"; do
	case $arg in
	--quick) mode=quick ;;
	--full) mode=full ;;
	-h | --help)
		sed -n '/SPDX-License-Identifier/d; s/^# \{0,1\}//; 2,/^$/p' "$0" | sed '/^$/q'
		exit 0 ;;
	*) echo "$me: unknown option '$arg' (--quick, --full or --help)" >&2; exit 2 ;;
	esac
done

need() {
	[ -x "$1" ] || { echo "$me: $1 is not built (run make)" >&2; exit 2; }
}

# "Linux 6.18.44, Intel(R) Xeon(R) Processor, 2 CPUs"
machine() {
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
	echo "$(uname -s) $(uname -r), ${cpu:-$(uname -m)}, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo ?) CPUs"
}

# ftcsv CSV METHOD FIELD: a field of forktime's CSV output for a method.
ftcsv() {
	printf '%s\n' "$1" | awk -F, -v m="$2" -v f="$3" '
	    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	    $1 == m { print $col[f]; exit }'
}

# forkbomb refuses root without --runasroot, as 1.4 did
fb_root() {
	[ "$(id -u)" -eq 0 ] && echo --runasroot
}
