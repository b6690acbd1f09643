package net

import _ "embed"

// ufwFuncs are the ufw module's shell helpers; the steps ufwJob.script
// writes after them call them, in the module's order:
//
//	_u_begin            finds ufw and grep (fail= when one is missing,
//	                    as get_bin_path fails), prints ufw= and grep=,
//	                    runs `ufw status verbose` (blob pre_state) and
//	                    reads the rules files' tuple lines (pre_rules)
//	_u_x ID IGN BLOB ..  runs one command; every command run prints a
//	                    "ran" blob with its ID, a failure (unless IGN)
//	                    failed=ID, rc= and the blobs out and err
//	_u_fail MSG         ends with msgfail=MSG
//	_u_relative REL N   sets _u_ins from `ufw status numbered`
//	_u_version          runs `ufw --version`, sets _u_cmt when that ufw
//	                    takes comments, or prints verfail=1 and the blob
//	                    out when the version cannot be read
//
// The steps end with done=1.
//
//go:embed ufw.sh
var ufwFuncs string
