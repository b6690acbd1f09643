# A new file gets 0666 less the umask, as Ansible's atomic_move gives it,
# and the writer's owner, unless the module's prelude (after this) sets
# $mode or $owner.
mode=$(printf '%o' $((0666 & ~0$(umask))))
owner=
_now=
[ -f "$f" ] && _now=$(md5sum <"$f" | cut -c1-32)
[ "$_now" = "$before" ] || { echo "fail=$f changed while it was being edited; run again"; exit 0; }
