
_t_ct() { if [ -n "$user" ] && [ "$(id -un)" != "$user" ]; then crontab -u "$user" "$@"; else crontab "$@"; fi; }
_o=$(_t_ct -l 2>/dev/null; echo x)
[ "$(printf '%s' "${_o%x}" | md5sum | cut -c1-32)" = "$before" ] || { echo "fail=the crontab changed while it was being edited; run again"; exit 0; }
_tmp=$(mktemp) || exit 1
trap 'rm -f "$_tmp"' EXIT
cat >"$_tmp" && chmod 0644 "$_tmp"
if _e=$(_t_ct "$_tmp" 2>&1); then echo written=1; else printf 'fail=%s\n' "$_e"; fi
