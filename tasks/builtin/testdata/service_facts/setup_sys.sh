# SysV host: an init script whose status says it runs, one without a
# status action (service --status-all puts it on stderr as "[ ? ]") and
# one that is not executable (left out).
set -e
cat >/etc/init.d/tender-up <<'S'
#!/bin/sh
case $1 in
status) echo "tender-up is running"; exit 0 ;;
*) exit 0 ;;
esac
S
printf '#!/bin/sh\necho "Usage: $0 {start|stop}"; exit 1\n' >/etc/init.d/tender-nostatus
printf '#!/bin/sh\nexit 0\n' >/etc/init.d/tender-noexec
chmod 755 /etc/init.d/tender-up /etc/init.d/tender-nostatus
chmod 644 /etc/init.d/tender-noexec
