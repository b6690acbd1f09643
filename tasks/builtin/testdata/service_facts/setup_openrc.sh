# OpenRC host: a started service in the default runlevel, a stopped one
# in two runlevels, one in no runlevel.
set -e
for s in tender-up tender-down tender-none; do
	printf '#!/sbin/openrc-run\ndescription="%s"\nstart() { :; }\nstop() { :; }\n' "$s" >/etc/init.d/$s
	chmod 755 /etc/init.d/$s
done
rc-update add tender-up default
rc-update add tender-down default
rc-update add tender-down nonetwork
rc-service tender-up start
# OpenRC trusts its dependency cache when it is as new as /etc/init.d to
# the second: refresh it, as the scripts may be that new.
rc-update -u
