# lvg's helpers; the steps lvgJob writes follow them (lvg.go).
# _l_dev N DEV CHECK: resolves DEV as realpath does (rp.N blob, _l_rpN);
# with CHECK 1 a path that does not exist prints nodev=N and ends
_l_dev() {
	_l_r=$(realpath -m -- "$2" 2>/dev/null) || _l_r=$2
	printf '%s' "$_l_r" >"$_t_d/rp"
	_t_blob "rp.$1" "$_t_d/rp"
	eval "_l_rp$1=\$_l_r"
	if [ "$3" = 1 ] && [ ! -e "$_l_r" ]; then
		printf '\nnodev=%s\n' "$1"
		exit 0
	fi
}
# _l_dm: for each line N of the pvs output, the volume's real path
# (blob real.N), a /dev/dm-N named first by /dev/mapper/ as dmsetup
# names it
_l_dm() {
	_l_n=0
	while IFS= read -r _l_line; do
		_l_n=$((_l_n + 1))
		_l_name=$(printf '%s' "${_l_line%%;*}" | sed 's/^[[:space:]]*//')
		case $_l_name in
		/dev/dm-*)
			_t_need dmsetup
			_t_x "dm.$_l_n" 0 "$_t_b" info -C --noheadings -o name "$_l_name"
			_l_name=/dev/mapper/$(sed 's/[[:space:]]*$//' "$_t_d/xo")
			;;
		esac
		_l_r=$(realpath -m -- "$_l_name" 2>/dev/null) || _l_r=$_l_name
		printf '%s' "$_l_r" >"$_t_d/rp"
		_t_blob "real.$_l_n" "$_t_d/rp"
	done <"$_t_d/pvs"
}
