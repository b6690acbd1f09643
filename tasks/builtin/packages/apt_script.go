package packages

import _ "embed"

// aptScript is apt's check-and-apply, one round trip. Its inputs are shell
// variables set before it (all quoted by the module):
//
//	specs     the package specs, one per line (name, name=ver, name>=ver;
//	          a name may hold the wildcards * ? [ ] !)
//	state     present, latest or absent
//	update    non-empty: update the cache when older than $valid seconds
//	valid     cache_valid_time; retries, maxdelay: update_cache_retries and
//	          update_cache_retry_max_delay
//	deb       a .deb on the host to install (then $specs is empty)
//	release   default_release; recommends: "", yes or no
//	purge, force, autoremove, downgrade, unauth, onlyup, noremove
//	(fail_on_autoremove), held (allow_change_held_packages): non-empty for on
//	dpkgopts  dpkg_options, comma-separated
//	locktime  lock_timeout in seconds
//	upgrade   dist, full, yes or safe: upgrade the host (then $specs and
//	          $deb are empty); allfail: name=* came with other names
//	clean, autoclean  non-empty for on
//	policy    policy_rc_d: the exit code of /usr/sbin/policy-rc.d while
//	          apt-get or dpkg runs, or "" to leave it alone
//	_t_check  non-empty: simulate (apt-get -s, dpkg --simulate)
//
// It decides, as Ansible's apt does, which packages need apt-get, runs one
// apt-get (or dpkg -i) for all of them and prints key=value lines:
// cache_updated, cache_update_time; then verdict=failed with msg (and
// cache=1 when the cache keys belong in the result), verdict=cacheonly,
// verdict=noop, verdict=upload (the deb is not on the host),
// verdict=cleaned (autoremove or autoclean alone, op naming which, then
// "--output--" and apt-get's stdout), or verdict=ran (or upgraded, for an
// upgrade) with cmd (the command as Ansible shows it), rc, outlen and
// errlen, followed by a "--output--" line, the command's stdout (outlen
// bytes) and its stderr (errlen bytes). Before the verdict, an
// item=<spec> line names each spec that needs apt-get (RunLoop tells a
// loop's items apart by them).
//
//go:embed apt.sh
var aptScript string
