
_t_remotetree() {
	case $source in */) _b= ;; *) _b=$(basename -- "$source") ;; esac
	_rep=$dest
	if [ -d "$dest" ]; then case $dest in */) _rep=$dest$_b ;; *) _rep=$dest/$_b ;; esac; fi
	case $source in */) root=${dest%/} ;; *) root=${dest%/}/$_b ;; esac
	echo verdict=tree
	echo "reported=$_rep"
	_src=${source%/}
	# relative paths are the login directory's; the walk below runs elsewhere
	case $_src in /*) ;; *) _src=$PWD/$_src ;; esac
	case $root in /*) ;; *) root=$PWD/$root ;; esac
	# preserve: the reported destination gets the source directory's mode
	[ "$mode" = preserve ] && mode=$(stat -c %a -- "$_src")
	# local_follow: links are copied as what they point at (a linked
	# directory's contents too); otherwise as links.
	_fl=-P; [ -n "$lfollow" ] && _fl=-L
	_out=$(cd -- "$_src" && find $_fl . | while IFS= read -r _rel; do
		_rel=${_rel#.}; _s=$_src$_rel; _d=$root$_rel
		if [ -d "$_s" ] && { [ -n "$lfollow" ] || [ ! -L "$_s" ]; }; then
			if [ ! -d "$_d" ]; then
				echo changed=1
				[ -n "$_t_check" ] || mkdir -p -- "$_d" || _t_fail "could not create $_d"
			fi
		elif [ -L "$_s" ] && [ -z "$lfollow" ]; then
			# a link is copied as a link: the same text is the same link
			if [ ! -L "$_d" ] || [ "$(readlink -- "$_s")" != "$(readlink -- "$_d")" ]; then
				echo changed=1
				if [ -z "$_t_check" ]; then
					rm -f -- "$_d.tender-tmp"
					ln -s -- "$(readlink -- "$_s")" "$_d.tender-tmp" && mv -fT -- "$_d.tender-tmp" "$_d" || _t_fail "failed to copy: $_s to $_d"
				fi
			fi
		elif [ ! -f "$_d" ] || [ "$(_t_sum sha1 "$_s")" != "$(_t_sum sha1 "$_d")" ]; then
			echo changed=1
			if [ -z "$_t_check" ]; then
				cp -p $_fl -- "$_s" "$_d.tender-tmp" && mv -f -- "$_d.tender-tmp" "$_d" || _t_fail "failed to copy: $_s to $_d"
			fi
		fi
		_t_exists "$_d" && _t_attrs "$_d" "" "$owner" "$group"
	done)
	case $_out in
	*failed=1*) echo "$_out" | grep -v '^changed=' ; exit 0 ;;
	*changed=1*) echo changed=1 ;;
	esac
	if _t_exists "$_rep"; then
		_o=$(_t_attrs "$_rep" "$mode" "" "")
		case $_o in *failed=1*) echo "$_o"; exit 0 ;; ?*) echo changed=1 ;; esac
		_t_info "$_rep"
	fi
	exit 0
}
