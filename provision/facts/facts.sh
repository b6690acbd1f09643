# tender's fact script: everything the facts parser needs, in one round
# trip, with nothing but POSIX sh and the tools every Linux has. Each line
# of output is KIND|NAME|VALUE:
#   v  a single value        f  one line of a file     p  a path that exists
#   b  a command's full path  e  an environment variable (% and newline as %25, %0A)
# The environment first, before this script changes it.
awk 'BEGIN { for (k in ENVIRON) { v = ENVIRON[k]; gsub(/%/, "%25", v); gsub(/\n/, "%0A", v); printf "e|%s|%s\n", k, v } }'
export LC_ALL=C
v() { printf 'v|%s|%s\n' "$1" "$2"; }
v system "$(uname -s)"
v kernel "$(uname -r)"
v kernel_version "$(uname -v)"
v machine "$(uname -m)"
v nodename "$(uname -n)"
# The fqdn as Python's socket.getfqdn() finds it: the node name's address,
# then that address's names.
a=$(getent hosts "$(uname -n)" 2>/dev/null | awk '{ print $1; exit }')
[ -n "$a" ] && v fqdn_names "$(getent hosts "$a" 2>/dev/null | sed -n 1p | cut -d' ' -f2- | tr -s ' \t' '  ')"
v user_id "$(id -un 2>/dev/null)"
v user_uid "$(id -u)"
v user_gid "$(id -g)"
v passwd "$(getent passwd "$(id -un 2>/dev/null)" 2>/dev/null)"
v cpus "$(grep -c '^processor' /proc/cpuinfo 2>/dev/null)"
v memtotal_kb "$(sed -n 's/^MemTotal: *\([0-9]*\) kB$/\1/p' /proc/meminfo 2>/dev/null)"
v proc1 "$(cat /proc/1/comm 2>/dev/null)"
v sbin_init "$(readlink /sbin/init 2>/dev/null)"
if [ -r /etc/os-release ]; then sed 's#^#f|/etc/os-release|#' /etc/os-release
elif [ -r /usr/lib/os-release ]; then sed 's#^#f|/etc/os-release|#' /usr/lib/os-release; fi
for f in /etc/debian_version /etc/redhat-release \
	/etc/centos-release /etc/system-release /etc/alpine-release /etc/lsb-release /etc/SuSE-release; do
	[ -r "$f" ] && sed "s#^#f|$f|#" "$f"
done
for p in /run/systemd/system /dev/.run/systemd /dev/.systemd /etc/init /sbin/openrc /etc/init.d \
	/run/ostree-booted /usr/bin/rpm-ostree /usr/bin/yum /usr/bin/dnf /usr/bin/apt-get /usr/bin/zypper \
	/usr/sbin/urpmi /usr/bin/pacman /bin/opkg /sbin/apk /usr/bin/emerge /usr/bin/xbps-install /usr/bin/swupd; do
	[ -e "$p" ] && printf 'p|%s|\n' "$p"
done
for b in systemctl initctl ip; do
	c=$(command -v "$b" 2>/dev/null) && printf 'b|%s|%s\n' "$b" "$c"
done
if command -v ip >/dev/null 2>&1; then
	ip -4 route get 8.8.8.8 2>/dev/null | sed -n 1p | sed 's#^#v|route4|#'
	ip -4 -o addr show 2>/dev/null | sed 's#^#f|ip4addr|#'
	dev=$(ip -4 route get 8.8.8.8 2>/dev/null | sed -n 's/.* dev \([^ ]*\).*/\1/p' | sed -n 1p)
	if [ -n "$dev" ] && [ -d "/sys/class/net/$dev" ]; then
		v dev_mac "$(cat "/sys/class/net/$dev/address" 2>/dev/null)"
		v dev_mtu "$(cat "/sys/class/net/$dev/mtu" 2>/dev/null)"
		v dev_type "$(cat "/sys/class/net/$dev/type" 2>/dev/null)"
	fi
fi
