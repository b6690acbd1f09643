package net

import _ "embed"

// vcsFuncs are the sh helpers of the git and subversion modules, whose
// scripts follow ansible-core's modules command by command. They need
// blobFuncs and debBinFuncs before them and set up $_t_d.
//
//	_v_in DIR CMD...   runs CMD as ansible-core's run_command does: in
//	                   DIR when DIR is a directory (a cwd that is not is
//	                   ignored), stdin from $_v_stdin plus a newline when
//	                   that is set (else /dev/null), stdout and stderr
//	                   in $_t_d/o and $_t_d/e, its words in $_t_d/argv
//	                   (NUL-terminated), its status in $_v_rc; a
//	                   CMD named by a path that cannot run ends the
//	                   script with noexe=ERRNO and blob argv, as
//	                   Python's OSError ends the module
//	_v_chk DIR CMD...  _v_in, and a failure ends the script as
//	                   run_command(check_rc=True) ends the module:
//	                   fail=rc with rc=, blobs argv, stdout and stderr
//	_v_put NAME TEXT   TEXT as blob NAME
//	_v_cat FILE        the file's text, trailing newlines kept, in $_v_c
//	_v_warn TEXT       a warning: blobs warn1, warn2, ... in order
//	_v_fail MSG FIELD... ends the script failing with MSG (fail=msg and
//	                   blob msg) and the fields named: stdout, stderr and
//	                   rc of the last command, cmd ($_v_cmd, a command
//	                   line as the module wrote it), argv (the last
//	                   command's words: cmd as a list), details ($_v_det),
//	                   and result (what the module's _v_result prints)
//	_v_lt A B          A is an older version than B (LooseVersion's
//	                   order, for versions made of numbers)
//	_v_abs PATH        os.path.abspath: PATH from the working directory,
//	                   . and .. resolved by name, in $_v_p
//
//go:embed vcs_funcs.sh
var vcsFuncs string
