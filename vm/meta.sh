# vm/meta.sh: edits a run's meta (key=value lines) in place, through a temporary file and a rename (sourced).
# shellcheck shell=bash

# meta_set FILE KEY=VALUE...: each KEY's line replaced (or added at the end),
# newlines in values made spaces; status 3 when FILE cannot be written
meta_set() {
	local file=$1 tmpf kv
	shift
	case $file in */*) tmpf=${file%/*}/.${file##*/}.$$.tmp ;; *) tmpf=.$file.$$.tmp ;; esac
	{
		for kv in "$@"; do kv=${kv//$'\n'/ }; printf '%s\n' "${kv//$'\r'/ }"; done
		printf '%s\n' '--'
		cat -- "$file"
	} | awk '
		!body && $0 == "--" { body = 1; next }
		!body { k = $0; sub(/=.*/, "", k); val[k] = $0; order[++n] = k; next }
		{ k = $0; sub(/=.*/, "", k) }
		k in val { if (!(k in done)) print val[k]; done[k] = 1; next }
		{ print }
		END { for (i = 1; i <= n; i++) if (!(order[i] in done)) print val[order[i]] }' >"$tmpf" &&
		mv -f -- "$tmpf" "$file" && return 0
	rm -f -- "$tmpf"
	return 3
}

# meta_get FILE KEY: the value of KEY, or status 1
meta_get() {
	local v
	v=$(grep -m 1 "^$2=" "$1" 2>/dev/null) || return 1
	printf '%s' "${v#*=}"
}
