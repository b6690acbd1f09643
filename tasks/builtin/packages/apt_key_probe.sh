
if [ -n "$derive" ]; then
	if [ -n "$keydata" ]; then
		"$_t_gpg" --with-colons - <"$_t_d/key" >"$_t_d/go" 2>"$_t_d/ge"
	else
		"$_t_gpg" --with-colons "$file" >"$_t_d/go" 2>"$_t_d/ge" </dev/null
	fi
	echo "gpg_rc=$?"
	_t_blob gpg_out "$_t_d/go"
	_t_blob gpg_err "$_t_d/ge"
fi
_t_list
echo done=1
