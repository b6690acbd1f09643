# Runs the script task's file, after the gate (gate.sh) let it: the file
# comes on stdin into a private directory, removed afterwards, under its
# controller name so that $0 reads the same. Inputs:
#   base     the file's name
#   has_exe  non-empty: run it with the program $exe
#   chdir    the directory to run it in, or empty
#   rest     its arguments: shell text the playbook's author wrote,
#            evaluated as Ansible's command line evaluates it
_d=$(mktemp -d) || exit 1
trap 'rm -rf "$_d"' EXIT
{ cat > "$_d/$base" && chmod 700 "$_d/$base"; } || exit 1
echo tender=run
if [ -n "$chdir" ]; then cd -P "$chdir" || exit 1; fi
_s="$_d/$base"
if [ -n "$has_exe" ]; then
	eval '"$exe" "$_s"' "$rest" '</dev/null'
else
	eval '"$_s"' "$rest" '</dev/null'
fi
