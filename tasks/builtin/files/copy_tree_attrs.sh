# Sets the attributes of the files a directory copy sent: the positional
# parameters are pairs of a path and its mode; $owner and $group (empty
# when not asked) apply to every one.
while [ $# -gt 1 ]; do
	_t_attrs "$1" "$2" "$owner" "$group" >/dev/null
	shift 2
done
