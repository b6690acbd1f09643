package net

import _ "embed"

// subversionScript is the subversion module's check-and-apply, one
// round trip, as ansible-core 2.14's subversion does it: the same svn
// commands in the same order. Inputs (shell variables set by the
// module): svnexe (executable, "" to look for svn), dest, repo, rev,
// force, username, export, checkout, update, switch, in_place, trust
// (validate_certs false: --trust-server-cert), check; and the password
// in the environment, TENDER_SVN_PASSWORD.
//
// The password reaches svn on its standard input (--password-from-stdin,
// svn 1.10 and later); an older svn fails the task, as tender puts no
// password on a command line.
//
// It prints changed=, blobs before and after ("n" for null, "s=" and a
// text, "l=" and the revision and URL lines of a list), then done=1; or
// a failure as vcsFuncs report them.
//
// Deliberate differences from ansible-core's, where it reports a change
// it did not make or makes one in check mode: checkout=no in check mode
// for a dest that is not there is unchanged (as the run would be);
// in_place in check mode checks nothing out (ansible-core's does) and
// reports the change the run would make; and an export over a dest that
// exists, with force, is compared first with an export of the same
// revision in a temporary directory: when every file, link and
// directory of it is the same in dest, nothing is exported and nothing
// changed.
//
//go:embed subversion.sh
var subversionScript string
