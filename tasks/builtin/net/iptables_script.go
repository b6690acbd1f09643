package net

import _ "embed"

// iptablesScript is the iptables module's check-and-apply, one round
// trip, in ansible-core 2.14's order. Inputs (shell variables and
// functions the module sets before it):
//
//	bin       iptables or ip6tables, found as Ansible's get_bin_path does
//	mode      flush, policy, delchain (state=absent without a rule) or rule
//	check     non-empty: change nothing
//	nochain   non-empty: neither chain nor flush was given
//	logjump   non-empty: logging options with a jump other than LOG
//	want      present or absent (the rule's state)
//	policy    the policy to set (mode policy)
//	cm        non-empty: chain_management
//	_t_w      wait's value, dropped below for an iptables older than
//	          1.6.0, as Ansible drops it
//	_t_c_ID   a command (chk, add, del, rules, list, setpol, flush, new,
//	_t_p_ID   delchain), run through _t_x, or as a probe (status only)
//
// It prints key=value lines: fail= (no iptables), nochain=1,
// logjump=1, nopolicy=1 (no policy in -L's first line), changed=1 when
// it changed (or in check mode would change) something, and done=1 at
// the end; a command that fails prints failed=ID and rc= with the blobs
// argv (its words, each ended by a NUL), out and err, as Ansible's
// check_rc reports it.
//
//go:embed iptables.sh
var iptablesScript string
