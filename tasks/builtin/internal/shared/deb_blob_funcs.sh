
_t_blob() {
	printf '\n@@blob %s %s\n' "$(wc -c <"$2" | tr -d ' ')" "$1"
	cat -- "$2"
}

# _t_x ID OK CMD...: runs CMD and prints rc.ID= and the blobs out.ID and
# err.ID (in _t_d/xo and _t_d/xe too); a return code other than 0 (nor 1
# when OK is 01; any when OK is any) prints failed=ID and ends the script
_t_x() {
	_t_xid=$1 _t_xok=$2
	shift 2
	"$@" >"$_t_d/xo" 2>"$_t_d/xe" </dev/null
	_t_xrc=$?
	printf '\nrc.%s=%s\n' "$_t_xid" "$_t_xrc"
	_t_blob "out.$_t_xid" "$_t_d/xo"
	_t_blob "err.$_t_xid" "$_t_d/xe"
	case $_t_xok.$_t_xrc in 0.0 | 01.0 | 01.1 | any.*) ;; *)
		printf '\nfailed=%s\n' "$_t_xid"
		exit 0
		;;
	esac
}
