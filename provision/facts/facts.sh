# tender's fact script: everything the facts parser needs, in one round
# trip, with nothing but POSIX sh (dash, bash, busybox ash) and the tools
# every Linux has. Starting a process can cost milliseconds on a busy host,
# so the script reads small /proc, /sys and /etc files with the shell's own
# read, and the large ones (cpuinfo, mounts, mountinfo, modules) with one
# awk. The other processes, each started at most once and only where the
# host has the tool: date (the clock), ip (addresses and routes), capsh
# (capabilities, where the shell's own sets do not tell them), stat -f
# (mount sizes; under timeout where a network share is mounted), python
# -V (its version: the interpreter's own start only where its files do
# not tell its facts); and only where they apply: lsblk
# (mount UUIDs, where a mounted device has a node), ls -ld (symlink targets,
# one call for all), uname/getent (no /proc), lsb_release (no
# /etc/lsb-release), vgs/lvs/pvs (LVM, as root), dmidecode (no DMI in /sys,
# as root), lspci (disks on PCI), ls -di / (the chroot check, not as root)
# and the executables in the local facts directory, as Ansible runs them.
# Values read from the host are data: printed, never evaluated.
#
# Each line of output is KIND|NAME|VALUE:
#   v  a single value          f  one line of a file (NAME: the file)
#   p  a path that exists      b  a command's full path
#   e  an environment variable (% and newline as %25, %0A)
#   o  starts an object: NAME its kind, VALUE its name (an interface, a disk, …)
#   a  an attribute of the last object started
#   s  stat -f of a mount point: NAME the numbers, VALUE type|path
# Output is bounded: at most 4096 mounts, 1024 interfaces, 1024 disks,
# 4096 /dev/disk links, 64 local facts of 1 MiB each, 10000 lines of a file
# and 8192 of a command's output; past a bound, v|…_capped|1 says so.
# The local facts directory (setup's fact_path; ScriptFor sets another).
fact_path=/etc/ansible/facts.d
nl='
'
# The environment first, before this script changes it; then the large
# files, and the mount points whose sizes are wanted, after a line "T".
# (awk is given only regular files: mawk gives up on a read error.)
tzf=/etc/localtime
if [ -n "${TZ+set}" ]; then
	tzf=${TZ#:}
	case $tzf in '' | /*) ;; *) tzf=/usr/share/zoneinfo/$tzf ;; esac
fi
[ -f "$tzf" ] && [ -r "$tzf" ] || tzf=
# Files printed whole (f|NAME|line, at most 10000 lines) by the awk, which
# reads a file in one call where the shell's read takes a call a byte:
# lines NAME<tab>PATH, of regular readable files only.
tab='	' fl='' sameos=''
add() { [ -f "$2" ] && [ -r "$2" ] && fl=$fl$1$tab$2$nl; }
if [ -r /etc/os-release ]; then add /etc/os-release /etc/os-release
elif [ -r /usr/lib/os-release ]; then add /etc/os-release /usr/lib/os-release; fi
# shellcheck disable=SC3013 # -ef: dash, bash and busybox have it
if [ /usr/lib/os-release -ef /etc/os-release ]; then sameos=1
elif [ -r /usr/lib/os-release ]; then sameos= && add /usr/lib/os-release /usr/lib/os-release; fi
for p in /etc/debian_version /etc/redhat-release /etc/centos-release /etc/system-release \
	/etc/alpine-release /etc/lsb-release /etc/SuSE-release /etc/altlinux-release /etc/oracle-release \
	/etc/slackware-version /etc/openwrt_release /etc/gentoo-release /etc/sourcemage-release \
	/etc/coreos/update.conf /etc/resolv.conf /etc/iscsi/initiatorname.iscsi \
	/etc/nvme/hostnqn /proc/xen/capabilities /etc/selinux/config; do
	add "$p" "$p"
done
for p in /etc/ssh /etc/openssh /etc; do
	for k in dsa rsa ecdsa ed25519; do add "$p/ssh_host_${k}_key.pub" "$p/ssh_host_${k}_key.pub"; done
done
rf=
[ -f /etc/passwd ] && [ -r /etc/passwd ] && rf=p
[ -f /etc/hosts ] && [ -r /etc/hosts ] && rf=${rf}h
pre=$(awk '
function out(k, n, v) { printf "%s|%s|%s\n", k, n, v }
function nz(v) { return v == "" ? "-" : v }
function esc(v) { gsub(/%/, "%25", v); gsub(/\n/, "%0A", v); return v }
function unoct(s,   r, c) {
	r = ""
	while (match(s, /\\[0-7][0-7][0-7]/)) {
		c = substr(s, RSTART + 1, 3)
		r = r substr(s, 1, RSTART - 1) sprintf("%c", (substr(c, 1, 1) * 64) + (substr(c, 2, 1) * 8) + substr(c, 3, 1))
		s = substr(s, RSTART + 4)
	}
	return r s
}
BEGIN {
	out("v", "awk", 1)
	for (k in ENVIRON) out("e", k, esc(ENVIRON[k]))
	n = 0
	while ((getline l < "/proc/cpuinfo") > 0 && n < 65536) {
		k = l; sub(/:.*/, "", k); gsub(/^[ \t]+|[ \t]+$/, "", k)
		if (k == "flags") { l = (index(l, "vme") ? "flags\t: vme" : "flags\t:") }
		else if (k !~ /^(model name|Processor|vendor_id|cpu|Vendor|processor|physical id|core id|cpu cores|siblings|# processors|ncpus active|machine)$/) continue
		out("f", "/proc/cpuinfo", l); n++
	}
	while ((getline l < "/proc/meminfo") > 0)
		if (l ~ /^(MemTotal|MemFree|Buffers|Cached|SwapTotal|SwapFree|SwapCached):/) out("f", "/proc/meminfo", l)
	while ((getline l < "/proc/modules") > 0) {
		split(l, w, " ")
		if (w[1] == "kvm" || w[1] == "vboxdrv" || w[1] == "virtio") out("v", "module_" w[1], 1)
	}
	n = 0
	while ((getline l < "/proc/1/cgroup") > 0 && n++ < 256) out("f", "/proc/1/cgroup", l)
	# the user and capabilities of a program the shell starts (the same as
	# those of the shell itself), and the line of /etc/passwd for the user
	while ((getline l < "/proc/self/status") > 0) {
		split(l, w)
		if (w[1] == "Uid:") { uid = w[2]; out("v", "uids", w[2] " " w[3]) }
		else if (w[1] == "Gid:") { gid = w[2]; out("v", "gids", w[2] " " w[3]) }
		else if (w[1] == "VxID:") out("v", "vxid", w[2])
		else if (w[1] == "Cpus_allowed_list:") out("v", "cpus_allowed", w[2])
		else if (w[1] ~ /^Cap(Inh|Prm|Eff|Amb):$/) cap[substr(w[1], 4, 3)] = w[2]
	}
	# (the shell reads byte by byte: a sysctl gives it one digit)
	if ((getline lastcap < "/proc/sys/kernel/cap_last_cap") <= 0) lastcap = ""
	pw = ""
	while (uid != "" && index(ARGV[3], "p") && (getline l < "/etc/passwd") > 0) {
		split(l, w, ":")
		if ((w[3] "") == (uid "")) { pw = l; break }
	}
	if ((getline l < "/proc/cmdline") > 0 && l != "") out("v", "cmdline", l)
	# for the fqdn, the address of the node name in /etc/hosts and the names
	# of that address ("-": no node name here; 0: none, the shell asks getent)
	hosts = "-"
	if ((getline node < "/proc/sys/kernel/hostname") > 0) {
		hosts = 0; addr = ""
		while (index(ARGV[3], "h") && addr == "" && (getline l < "/etc/hosts") > 0) {
			k = split(l, w)
			if (k < 2 || substr(w[1], 1, 1) == "#" || index(w[1], ":")) continue
			for (i = 2; i <= k; i++) if ((w[i] "") == (node "")) { addr = w[1]; break }
		}
		close("/etc/hosts")
		while (addr != "" && (getline l < "/etc/hosts") > 0) {
			split(l, w)
			if ((w[1] "") != (addr "")) continue
			sub(/^[ \t]*[^ \t]+[ \t]*/, "", l); sub(/[ \t]+$/, "", l)
			out("v", "fqdn_names", l); break
		}
		if (addr != "") hosts = 1
	}
	n = split(ARGV[2], files, "\n")
	for (i = 1; i <= n; i++) {
		j = index(files[i], "\t")
		if (j == 0) continue
		p = substr(files[i], j + 1); k = 0
		while (k < 10000 && (getline l < p) > 0) { out("f", substr(files[i], 1, j - 1), l); k++ }
		close(p)
	}
	# the bits of this (userspace) process: an address above 32 bits
	bits = 32
	while ((getline l < "/proc/self/maps") > 0) { a = l; sub(/-.*/, "", a); if (length(a) > 8) bits = 64 }
	out("v", "userspace_bits", bits)
	# the zone rule at the end of the local zone file (its last line)
	last = ""
	if (ARGV[1] != "") while ((getline l < ARGV[1]) > 0) last = l
	if (last != "") out("v", "tzfooter", last)
	# mounts: bind mounts (a root other than /) as findmnt shows them
	n = 0
	while ((getline l < "/proc/self/mountinfo") > 0 && n < 4096) {
		split(l, w, " ")
		if (w[4] != "/") { out("f", "binds", w[5]); n++ }
	}
	mtab = "/etc/mtab"
	if ((getline l < mtab) < 0) mtab = "/proc/mounts"
	close(mtab)
	n = 0; t = ""
	while ((getline l < mtab) > 0) {
		if (split(l, w) < 4) continue
		if (n++ >= 4096) { out("v", "mounts_capped", 1); break }
		out("f", "mtab", l)
		if (w[3] == "selinuxfs") out("v", "selinuxfs", w[2])
		d = unoct(w[1]); m = unoct(w[2])
		if ((substr(d, 1, 1) != "/" && substr(d, 1, 1) != "\\" && index(d, ":/") == 0) || unoct(w[3]) == "none") continue
		if (index(m, "\n") || (m in seen)) continue
		seen[m] = 1; t = t m "\n"
		# a device to ask lsblk about; a network share to stat under a timeout
		if (substr(d, 1, 5) == "/dev/" && !(d in devs)) { devs[d] = 1; t = t "=" d "\n" }
		if (index(d, ":") || substr(d, 1, 2) == "//" || w[3] ~ /^(nfs|cifs|smb|ceph|glusterfs|fuse\.sshfs|9p|afs|lustre)/) net = 1
	}
	printf "T\n%s %s %s %s %s %s %s %s\n%s\n%s%s", nz(uid), nz(gid), nz(cap["Inh"]), nz(cap["Prm"]), nz(cap["Eff"]),
		nz(cap["Amb"]), nz(lastcap), hosts, pw, t, (net ? "!\n" : "")
}' "$tzf" "$fl" "$rf")
# After the line T: "UID GID CAPINH CAPPRM CAPEFF CAPAMB LASTCAP HOSTS" ("-"
# for none), the user's passwd line, then the targets. Without them (no awk)
# the shell reads what the awk would have.
pre=$pre$nl targets='' self='' pw=''
case $pre in *"${nl}T${nl}"*)
	targets=${pre##*"${nl}T${nl}"}
	self=${targets%%"$nl"*} targets=${targets#*"$nl"}
	pw=${targets%%"$nl"*} targets=${targets#*"$nl"}
	;;
esac
printf '%s\n' "${pre%"${nl}T${nl}"*}"
export LC_ALL=C
v() { printf 'v|%s|%s\n' "$1" "$2"; }
a() { printf 'a|%s|%s\n' "$1" "$2"; }
o() { printf 'o|%s|%s\n' "$1" "$2"; }
# f NAME FILE prints every line of FILE (at most 10000).
f() {
	fn=0
	while [ $fn -lt 10000 ] && IFS= read -r l || [ -n "$l" ]; do
		printf 'f|%s|%s\n' "$1" "$l"; fn=$((fn + 1)); l=
	done 2>/dev/null <"$2"
}
# r FILE sets x to FILE's first line (empty when unreadable); false when empty.
r() { x=; [ -r "$1" ] && IFS= read -r x 2>/dev/null <"$1"; [ -n "$x" ]; }
# ra NAME FILE prints FILE's first line as attribute NAME when it has one.
ra() { r "$2" && a "$1" "$x"; }

date '+v|date|%s %N %z %Z'
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
hosts=-
case $self in *" "[01-]) hosts=${self##* } ;; esac
if [ "$hosts" = 1 ]; then :
elif [ "$hosts" = - ] && [ -r /etc/hosts ]; then
	while read -r ip names; do
		case $ip in '' | \#* | *:*) continue ;; esac
		for n in $names; do
			[ "$n" = "$node" ] && { addr=$ip; break 2; }
		done
	done </etc/hosts
fi
if [ "$hosts" = 1 ]; then :
elif [ -n "$addr" ]; then
	while read -r ip names; do
		[ "$ip" = "$addr" ] && { v fqdn_names "$names"; break; }
	done </etc/hosts
else
	addr=$(getent hosts "$node" 2>/dev/null) && addr=${addr%%[ 	]*} &&
		names=$(getent hosts "$addr" 2>/dev/null) && v fqdn_names "${names#*[ 	]}"
fi

# The user, from /proc/self/status and /etc/passwd (read by the awk, or
# here without it); the files the awk would have printed.
uid='' gid='' ci='' cp='' ce='' ca=0 last=''
if [ -n "$self" ]; then
	set -f
	# shellcheck disable=SC2086 # split at blanks, globbing off
	set -- $self
	set +f
	uid=$1 gid=$2 ci=$3 cp=$4 ce=$5 ca=$6 last=$7
else
	while read -r k a b rest; do
		case $k in
		CapInh:) ci=$a ;; CapPrm:) cp=$a ;; CapEff:) ce=$a ;; CapAmb:) ca=$a ;;
		Uid:) uid=$a; v uids "$a $b" ;;
		Gid:) gid=$a; v gids "$a $b" ;;
		VxID:) v vxid "$a" ;;
		Cpus_allowed_list:) v cpus_allowed "$a" ;;
		esac
	done </proc/self/status
	while IFS= read -r l; do
		rest=${l#*:*:}
		[ "${rest%%:*}" = "$uid" ] && { pw=$l; break; }
	done </etc/passwd
	while IFS= read -r l; do
		[ -n "$l" ] && f "${l%%"$tab"*}" "${l#*"$tab"}"
	done <<FILES
$fl
FILES
fi
[ "$ca" != - ] || ca=0
[ -n "$pw" ] || pw=$(getent passwd "$uid" 2>/dev/null)
v user_id "${pw%%:*}"
v user_uid "$uid"
v user_gid "$gid"
v passwd "$pw"

r /proc/1/comm; v proc1 "$x"
r /proc/uptime && v uptime "$x"
r /proc/loadavg && v loadavg "$x"
[ -n "$self" ] || { r /proc/cmdline && v cmdline "$x"; }
r /proc/sys/crypto/fips_enabled && v fips "$x"
r /run/systemd/container && v systemd_container "$x"
r /sys/hypervisor/type && v hypervisor "$x"
if r /var/lib/dbus/machine-id || r /etc/machine-id; then v machine_id "$x"; fi
# PID 1's environment (root only) says container=…; only that is printed.
# The shell drops its NUL separators: any "container=x" counts as one.
x=
[ -r /proc/1/environ ] && { IFS= read -r x </proc/1/environ; } 2>/dev/null
k=
case $x in *container=lxc*) k=lxc ;; esac
case $x in *container=podman*) k="$k podman" ;; esac
case $x in *container=?*) v pid1_container "$k any" ;; esac
# RHEV hosts: is vdsm running?
if [ -d /rhev ]; then
	for p in /proc/[0-9]*/comm; do r "$p"; case $x in vdsm | vdsmd) v vdsm 1; break ;; esac; done
fi
if [ -r /sys/fs/selinux/enforce ]; then r /sys/fs/selinux/enforce; v selinux_enforce "$x"; r /sys/fs/selinux/policyvers; v selinux_policyvers "$x"; fi

[ -z "$sameos" ] || v same_os_release 1
for p in /sys/class/fc_host/*/port_name; do [ -r "$p" ] && f /sys/class/fc_host "$p"; done
for p in /run/systemd/system /dev/.run/systemd /dev/.systemd /etc/init /sbin/openrc /etc/init.d \
	/run/ostree-booted /usr/bin/rpm-ostree /usr/bin/yum /usr/bin/dnf /usr/bin/apt-get /usr/bin/zypper \
	/usr/sbin/urpmi /usr/bin/pacman /bin/opkg /sbin/apk /usr/bin/emerge /usr/bin/xbps-install /usr/bin/swupd \
	/etc/vmware-release /etc/arch-release /sys/kernel/security/apparmor /etc/selinux/config /proc/vz /proc/lve \
	/proc/bc /.dockerenv /.dockerinit /proc/xen /dev/kvm /rhev /sys/devices/virtual/dmi/id/product_name \
	/dev/disk/by-uuid /sys/block; do
	[ -e "$p" ] && printf 'p|%s|\n' "$p"
done
# Commands, where Ansible looks for them: $PATH, then the sbin directories.
ipcmd='' capsh='' lsblk='' lsbr='' vgs='' lspci='' dmi='' tmo=''
dirs=$PATH
for d in /sbin /usr/sbin /usr/local/sbin; do case :$PATH: in *:$d:*) ;; *) dirs=$dirs:$d ;; esac; done
for b in systemctl initctl ip capsh lsblk findmnt udevadm lsb_release vgs lvs pvs lspci dmidecode timeout; do
	saved=$IFS; IFS=:
	for d in $dirs; do
		if [ -n "$d" ] && [ -f "$d/$b" ] && [ -x "$d/$b" ]; then
			printf 'b|%s|%s\n' "$b" "$d/$b"
			case $b in
			ip) ipcmd=$d/$b ;; capsh) capsh=$d/$b ;; lsblk) lsblk=$d/$b ;; lsb_release) lsbr=$d/$b ;;
			vgs) vgs=$d/$b ;; lspci) lspci=$d/$b ;; dmidecode) dmi=$d/$b ;; timeout) tmo=$d/$b ;;
			esac
			break
		fi
	done
	IFS=$saved
done
# lines NAME TEXT prints each line of TEXT as f|NAME|line, at most 8192
# (then v|NAME_capped|1).
lines() {
	saved=$IFS; IFS=$nl; set -f
	ln=$1
	# shellcheck disable=SC2086 # split at newlines, globbing off
	set -- $2
	if [ $# -le 8192 ]; then
		[ $# -gt 0 ] && printf "f|$ln|%s\\n" "$@"
	else
		fn=0
		for l; do [ $fn -lt 8192 ] || break; printf 'f|%s|%s\n' "$ln" "$l"; fn=$((fn + 1)); done
		v "${ln}_capped" 1
	fi
	set +f; IFS=$saved
}

# capsh --print's Current line, all that is read of it, follows from the
# shell's own sets (capsh gets the same on exec) where they are plain:
# nothing inheritable or ambient, effective the same as permitted, no bit
# past the kernel's last, and all of them set or at most half (libcap
# then writes "=ep", "NAMES=ep" or "="): v|caps|EFFECTIVE LAST. Others ask
# capsh.
capfast=
if [ -n "$capsh" ]; then
	x=$last
	case $x$ci$cp$ce$ca in *[!0-9a-f]* | '') x= ;; esac
	case $x in [0-9] | [1-5][0-9]) ;; *) x= ;; esac
	if [ -n "$x" ] && [ ${#ci} -eq 16 ] && [ ${#ce} -eq 16 ] && [ "$cp" = "$ce" ] && [ $((0x$ci)) -eq 0 ] && [ $((0x${ca:-0})) -eq 0 ]; then
		bits=$((x + 1)) m=$((0x$ce)) n=0
		if [ $((m >> bits)) -eq 0 ]; then
			while [ $m -gt 0 ]; do n=$((n + m % 2)) m=$((m / 2)); done
			[ $n -eq $bits ] || [ $((2 * n)) -le $bits ] && capfast=1
		fi
	fi
fi
if [ -n "$capfast" ]; then v caps "$ce $((bits - 1))"
elif [ -n "$capsh" ] && out=$("$capsh" --print 2>/dev/null); then lines capsh "$out"; fi
if [ -n "$lsbr" ] && ! [ -e /etc/lsb-release ] && out=$("$lsbr" -a 2>/dev/null); then lines lsb_release "$out"; fi
if [ -n "$vgs" ] && [ "$uid" = 0 ]; then
	for b in vgs lvs pvs; do
		[ -x "${vgs%/*}/$b" ] && out=$("${vgs%/*}/$b" --noheadings --nosuffix --units g --separator , 2>/dev/null) && lines "$b" "$out"
	done
	for p in /sys/block/dm-*/dm/name; do r "$p" && { p=${p%/dm/name}; printf 'f|dm_name|%s %s\n' "${p##*/}" "$x"; }; done
fi

# DMI, from the kernel; dmidecode only where the kernel has none.
if [ -e /sys/devices/virtual/dmi/id/product_name ]; then
	for k in bios_date bios_vendor bios_version board_asset_tag board_name board_serial board_vendor \
		board_version chassis_asset_tag chassis_serial chassis_vendor chassis_version chassis_type \
		product_name product_serial product_uuid product_version sys_vendor product_family; do
		r "/sys/devices/virtual/dmi/id/$k" && v "dmi_$k" "$x"
	done
elif [ -n "$dmi" ] && [ "$uid" = 0 ] && out=$("$dmi" -q -t 0,1,2,3 2>/dev/null); then
	lines dmidecode "$out"
fi

# Symlinks whose targets are wanted, read by one ls -ld at the end.
links=
[ -L /sbin/init ] && links=/sbin/init
n=0
for p in /sys/class/net/*; do
	[ -d "$p" ] || continue
	[ $n -lt 1024 ] || { v net_capped 1; break; }
	n=$((n + 1))
	o net "${p##*/}"
	[ -e "$p/address" ] && a has_address 1
	for k in address mtu operstate type speed flags; do ra "$k" "$p/$k"; done
	[ -e "$p/device" ] && links=$links$nl$p/device
	[ -e "$p/device/driver/module" ] && links=$links$nl$p/device/driver/module
	if [ -e "$p/bridge" ]; then
		a bridge 1
		ra bridge_id "$p/bridge/bridge_id"; ra stp_state "$p/bridge/stp_state"
		for k in "$p"/brif/*; do [ -e "$k" ] && a brif "${k##*/}"; done
	fi
	if [ -e "$p/bonding" ]; then
		a bonding 1
		for k in slaves mode miimon lacp_rate primary all_slaves_active; do ra "bond_$k" "$p/bonding/$k"; done
	fi
	[ -e "$p/bonding_slave" ] && { r "$p/bonding_slave/perm_hwaddr"; a perm_hwaddr "$x"; }
done
if [ -n "$ipcmd" ]; then
	# One ip process answers every question (busybox's ip has no -batch:
	# three then); no packet is sent.
	if out=$("$ipcmd" -o -force -batch - 2>/dev/null <<IPCMDS
addr show
route get 8.8.8.8
route get 2404:6800:400a:800::1012
IPCMDS
	) || [ -n "$out" ]; then :; else
		v ip_batch no
		out=$("$ipcmd" -o addr show 2>/dev/null)
		out=$out$nl$("$ipcmd" route get 8.8.8.8 2>/dev/null)$nl$("$ipcmd" route get 2404:6800:400a:800::1012 2>/dev/null)
	fi
	lines ip "$out"
fi

n=0
for p in /sys/block/*; do
	[ -e "$p" ] || [ -L "$p" ] || continue
	[ $n -lt 1024 ] || { v blk_capped 1; break; }
	n=$((n + 1))
	b=${p##*/}
	o blk "$b"
	if [ -L "$p" ]; then
		[ -n "$lspci" ] && links=$links$nl$p
	else
		a nolink 1
		for k in "$p"/*device*; do [ -e "$k" ] && { a hasdevice 1; break; }; done
	fi
	for k in device/vendor device/model device/sas_address device/sas_device_handle device/serial removable \
		queue/discard_granularity queue/rotational queue/scheduler size queue/logical_block_size queue/hw_sector_size; do
		ra "$k" "$p/$k"
	done
	for k in "$p"/holders/dm-*; do [ -e "$k" ] && { r "$k/dm/name" || x=${k##*/}; a holder "$x"; }; done
	for k in "$p"/*; do
		case ${k##*/} in
		*"$b"[0-9]* | *"$b"p[0-9]*)
			o part "${k##*/}"
			for e in start size queue/logical_block_size queue/hw_sector_size; do ra "$e" "$k/$e"; done
			for e in "$k"/holders/dm-*; do [ -e "$e" ] && { r "$e/dm/name" || x=${e##*/}; a holder "$x"; }; done
			;;
		esac
	done
done
for p in /sys/block/*/slaves/*; do [ -e "$p" ] && printf 'f|slaves|%s\n' "$p"; done
n=0
for p in /dev/disk/by-id/* /dev/disk/by-uuid/* /dev/disk/by-label/*; do
	[ -L "$p" ] || continue
	[ $n -lt 4096 ] || { v links_capped 1; break; }
	n=$((n + 1)); links=$links$nl$p
done
out=
if [ -n "$links" ]; then
	set -f; saved=$IFS; IFS=$nl
	# shellcheck disable=SC2086 # split at newlines, globbing off
	out=$(ls -ld -- $links 2>/dev/null)
	IFS=$saved; set +f
	lines ls "$out"
fi
if [ -n "$lspci" ] && case $out in *" -> "*/[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:*) true ;; *) false ;; esac; then
	out=$("$lspci" -D 2>/dev/null) && lines lspci "$out"
fi

# Mount sizes: one stat -f for every mount point, under a timeout (a hung
# NFS server must not hang the play); then their UUIDs from one lsblk.
root=
# shellcheck disable=SC3013
if [ / -ef /proc/1/root/. ]; then v same_root 1
elif ! [ -e /proc/1/root/. ]; then
	# not root: Ansible compares /'s inode with its filesystem's root inode
	root=$(ls -di / 2>/dev/null) && v root_inode "${root%% /*}"
	root=/$nl
fi
# awk's list: mount points, "=device" for those under /dev, "!" when one
# is a network share (the only ones stat runs under timeout for).
blk='' netfs=''
set -f; saved=$IFS; IFS=$nl
set --
for k in $targets$root; do
	case $k in
	=*) [ -b "${k#=}" ] && blk=1 ;;
	!) netfs=1 ;;
	*) set -- "$@" "$k" ;;
	esac
done
IFS=$saved; set +f
if [ $# -gt 0 ]; then
	if [ -n "$netfs" ] && [ -n "$tmo" ]; then
		"$tmo" 10 stat -f -c 's|%S %s %b %a %c %d|%T|%n' -- "$@" 2>/dev/null; v stat_rc $?
	else
		stat -f -c 's|%S %s %b %a %c %d|%T|%n' -- "$@" 2>/dev/null
	fi
fi
# lsblk knows UUIDs only of devices this host has nodes of.
if [ -n "$blk" ] && [ -n "$lsblk" ] && out=$("$lsblk" --list --noheadings --paths --output NAME,UUID --exclude 2 2>/dev/null); then
	lines lsblk "$out"
fi

# Local facts: *.fact files in $fact_path, run when executable (none
# when it is empty, as Ansible has it).
n=0
for p in "$fact_path"/*.fact; do
	[ -n "$fact_path" ] && { [ -e "$p" ] || [ -L "$p" ]; } || continue
	case $p in *"$nl"*) continue ;; esac # the output is line by line
	[ $n -lt 64 ] || { v local_capped 1; break; }
	n=$((n + 1))
	o local "$p"
	if [ ! -e "$p" ]; then
		a nostat 1 # a dangling link: Ansible's stat of it fails
	elif [ -x "$p" ]; then
		# stderr, then "rc length", then stdout: the parser cuts stdout by its length.
		out=$({ x=$("$p" </dev/null 2>&3 3>&-); printf '\n%s %s\n%s' "$?" "${#x}" "$x"; } 3>&1)
		a exec 1
		if [ ${#out} -gt 1048576 ]; then a toolarge "${#out}"; else
			while IFS= read -r l; do printf 'a|out|%s\n' "$l"; done <<FACT
$out
FACT
		fi
	elif [ -r "$p" ]; then
		fn=0
		while [ $fn -lt 20000 ] && IFS= read -r l || [ -n "$l" ]; do
			printf 'a|line|%s\n' "$l"; fn=$((fn + 1)); l=
		done 2>/dev/null <"$p"
	fi
done

