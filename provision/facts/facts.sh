# tender's fact script: everything the facts parser needs, in one round
# trip, with nothing but POSIX sh and the tools every Linux has. Starting a
# process can cost tens of milliseconds on a busy host, so the script reads
# /proc, /sys and /etc with the shell's own read and starts only awk, uname
# and ip. Each line of output is KIND|NAME|VALUE:
#   v  a single value        f  one line of a file     p  a path that exists
#   b  a command's full path  e  an environment variable (% and newline as %25, %0A)
# The environment first, before this script changes it.
awk 'BEGIN { for (k in ENVIRON) { v = ENVIRON[k]; gsub(/%/, "%25", v); gsub(/\n/, "%0A", v); printf "e|%s|%s\n", k, v } }'
export LC_ALL=C
v() { printf 'v|%s|%s\n' "$1" "$2"; }
# f NAME FILE prints every line of FILE.
f() { while IFS= read -r l || [ -n "$l" ]; do printf 'f|%s|%s\n' "$1" "$l"; done <"$2"; }
# r FILE sets x to FILE's first line (empty when unreadable).
r() { x=; [ -r "$1" ] && IFS= read -r x <"$1"; }

if [ -r /proc/sys/kernel/ostype ]; then
	r /proc/sys/kernel/ostype; v system "$x"
	r /proc/sys/kernel/osrelease; v kernel "$x"
	r /proc/sys/kernel/version; v kernel_version "$x"
	r /proc/sys/kernel/hostname; v nodename "$x"
	node=$x
else
	v system "$(uname -s)"; v kernel "$(uname -r)"; v kernel_version "$(uname -v)"
	node=$(uname -n); v nodename "$node"
fi
if [ -r /proc/sys/kernel/arch ]; then r /proc/sys/kernel/arch; v machine "$x"; else v machine "$(uname -m)"; fi

# The fqdn as Python's socket.getfqdn() finds it: the node name's address,
# then that address's names (the files source first, getent for the rest).
addr=
if [ -r /etc/hosts ]; then
	while read -r ip names; do
		case $ip in '' | \#* | *:*) continue ;; esac
		for n in $names; do
			[ "$n" = "$node" ] && { addr=$ip; break 2; }
		done
	done </etc/hosts
fi
if [ -n "$addr" ]; then
	while read -r ip names; do
		[ "$ip" = "$addr" ] && { v fqdn_names "$names"; break; }
	done </etc/hosts
else
	addr=$(getent hosts "$node" 2>/dev/null) && addr=${addr%%[ 	]*} &&
		names=$(getent hosts "$addr" 2>/dev/null) && v fqdn_names "${names#*[ 	]}"
fi

# The user, from the shell's own /proc entry and /etc/passwd.
uid= gid=
while read -r k a b; do
	case $k in Uid:) uid=$a ;; Gid:) gid=$a; break ;; esac
done </proc/self/status
pw=
while IFS= read -r l; do
	rest=${l#*:*:}
	[ "${rest%%:*}" = "$uid" ] && { pw=$l; break; }
done </etc/passwd
[ -n "$pw" ] || pw=$(getent passwd "$uid" 2>/dev/null)
v user_id "${pw%%:*}"
v user_uid "$uid"
v user_gid "$gid"
v passwd "$pw"

n=0
while read -r k rest; do case $k in processor) n=$((n + 1)) ;; esac; done </proc/cpuinfo
v cpus "$n"
while read -r k a rest; do [ "$k" = MemTotal: ] && { v memtotal_kb "$a"; break; }; done </proc/meminfo
r /proc/1/comm; v proc1 "$x"
if [ -L /sbin/init ]; then v sbin_init "$(readlink /sbin/init)"; else v sbin_init ""; fi

if [ -r /etc/os-release ]; then f /etc/os-release /etc/os-release
elif [ -r /usr/lib/os-release ]; then f /etc/os-release /usr/lib/os-release; fi
for p in /etc/debian_version /etc/redhat-release /etc/centos-release /etc/system-release \
	/etc/alpine-release /etc/lsb-release /etc/SuSE-release; do
	[ -r "$p" ] && f "$p" "$p"
done
for p in /run/systemd/system /dev/.run/systemd /dev/.systemd /etc/init /sbin/openrc /etc/init.d \
	/run/ostree-booted /usr/bin/rpm-ostree /usr/bin/yum /usr/bin/dnf /usr/bin/apt-get /usr/bin/zypper \
	/usr/sbin/urpmi /usr/bin/pacman /bin/opkg /sbin/apk /usr/bin/emerge /usr/bin/xbps-install /usr/bin/swupd; do
	[ -e "$p" ] && printf 'p|%s|\n' "$p"
done
ipcmd=
for b in systemctl initctl ip; do
	saved=$IFS; IFS=:
	for d in $PATH; do
		[ -n "$d" ] && [ -f "$d/$b" ] && [ -x "$d/$b" ] && { printf 'b|%s|%s\n' "$b" "$d/$b"; [ "$b" = ip ] && ipcmd=$d/$b; break; }
	done
	IFS=$saved
done
if [ -n "$ipcmd" ]; then
	# One ip process answers both questions; no packet is sent.
	out=$("$ipcmd" -4 -o -batch - 2>/dev/null <<IPCMDS
route get 8.8.8.8
addr show
IPCMDS
)
	route=
	while IFS= read -r l; do
		case $l in
		"8.8.8.8 "*) route=$l; v route4 "$l" ;;
		?*) printf 'f|ip4addr|%s\n' "$l" ;;
		esac
	done <<ADDRS
$out
ADDRS
	case $route in
	*" dev "*)
		dev=${route#* dev }; dev=${dev%% *}
		if [ -d "/sys/class/net/$dev" ]; then
			r "/sys/class/net/$dev/address"; v dev_mac "$x"
			r "/sys/class/net/$dev/mtu"; v dev_mtu "$x"
			r "/sys/class/net/$dev/type"; v dev_type "$x"
		fi
		;;
	esac
fi
# The Python a module would run with (Ansible's python facts come from the
# interpreter running setup): the first of the names Ansible's discovery
# tries that exists, asked in isolated mode for what it is.
for p in /usr/bin/python3 /usr/libexec/platform-python /usr/bin/python /usr/local/bin/python3 python3 python; do
	if command -v "$p" >/dev/null 2>&1; then
		"$p" -I -c 'import sys
v = sys.version_info
print("v|python_executable|" + sys.executable)
print("v|python_version_info|%d %d %d %s %d" % (v[0], v[1], v[2], v[3], v[4]))
print("v|python_type|" + sys.implementation.name)
try:
    import ssl
    print("v|python_sslcontext|%s" % hasattr(ssl, "SSLContext"))
except ImportError:
    print("v|python_sslcontext|False")' 2>/dev/null
		break
	fi
done
