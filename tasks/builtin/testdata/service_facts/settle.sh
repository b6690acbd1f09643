# settle.sh waits (60 s at most) until a fleet container has booted: sshd
# answers and, by its init system, systemd has finished starting units or
# OpenRC has no service starting or stopping.
i=0
until nc -z 127.0.0.1 22 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 300 ] || { echo "sshd did not start" >&2; exit 1; }
	sleep 0.2
done
if grep -q systemd /proc/1/comm; then
	until systemctl is-system-running --wait >/dev/null 2>&1 || [ "$(systemctl is-system-running 2>/dev/null)" = degraded ]; do
		i=$((i + 1)); [ $i -lt 300 ] || { echo "systemd did not settle" >&2; exit 1; }
		sleep 0.2
	done
elif command -v rc-status >/dev/null; then
	while rc-status -a -s -m 2>/dev/null | grep -qE 'starting|stopping'; do
		i=$((i + 1)); [ $i -lt 300 ] || { echo "OpenRC did not settle" >&2; exit 1; }
		sleep 0.2
	done
fi
exit 0
