# The init scripts the sysvinit tasks drive on a fresh debian-sys host.
set -e
# tender-d: an LSB-style daemon (a sleep) with a pidfile; it echoes the
# arguments it was given and logs every action.
cat >/etc/init.d/tender-d <<'S'
#!/bin/sh
### BEGIN INIT INFO
# Provides:          tender-d
# Required-Start:
# Required-Stop:
# Default-Start:     2 3 4 5
# Default-Stop:      0 1 6
# Short-Description: tender test daemon
### END INIT INFO
pid=/run/tender-d.pid
action=$1; shift
echo "$action $*" >>/var/log/tender-d.log
case $action in
start)
	echo "Starting tender-d: $*"
	start-stop-daemon --start --quiet --background --make-pidfile --pidfile $pid --exec /bin/sleep -- 31337 ;;
stop)
	echo "Stopping tender-d"
	start-stop-daemon --stop --quiet --oknodo --pidfile $pid --retry 5; rm -f $pid ;;
reload)
	echo "Reloading tender-d" ;;
status)
	if start-stop-daemon --status --pidfile $pid; then echo "tender-d is running"; exit 0; fi
	echo "tender-d is not running"; exit 3 ;;
*) echo "Usage: $0 {start|stop|reload|status}" >&2; exit 2 ;;
esac
S
# tender-bad: start fails; status says stopped.
printf '#!/bin/sh\ncase $1 in\nstatus) echo "tender-bad is stopped"; exit 3 ;;\nstart) echo "cannot start"; echo "no config" >&2; exit 1 ;;\nesac\n' >/etc/init.d/tender-bad
# tender-idle: status prints inactive with rc 0 (words win over rc).
printf '#!/bin/sh\ncase $1 in\nstatus) echo "service is inactive"; exit 0 ;;\n*) echo "$1 done" ;;\nesac\n' >/etc/init.d/tender-idle
# tender-ok: status prints two lines with rc 0 (rc 0 means running).
printf '#!/bin/sh\ncase $1 in\nstatus) printf "line one\\nline two\\n" ;;\n*) echo "$1 done" ;;\nesac\n' >/etc/init.d/tender-ok
# tender-ps: status fails with rc 5 and two lines; a process named after
# it runs, so that only ps tells it is up.
printf '#!/bin/sh\ncase $1 in\nstatus) printf "??\\n??\\n"; exit 5 ;;\n*) echo "$1 done" ;;\nesac\n' >/etc/init.d/tender-ps
chmod 755 /etc/init.d/tender-d /etc/init.d/tender-bad /etc/init.d/tender-idle /etc/init.d/tender-ok /etc/init.d/tender-ps
cp /bin/sleep /usr/local/bin/tender-ps-daemon
setsid /usr/local/bin/tender-ps-daemon 4242 </dev/null >/dev/null 2>&1 &
# a daemon found by pattern
setsid /bin/sleep 27182 </dev/null >/dev/null 2>&1 &
exit 0
