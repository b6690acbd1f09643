#!/bin/sh
# setup.sh prepares a fresh sys host for the at fleet test: a script
# file for script_file and an empty at spool (atd is not started, so no
# job ever runs: jobs wait in the spool, where atq lists them).
set -eu
printf '#!/bin/sh\necho from script >/tmp/at_script_ran\n' >/srv/job.sh
printf 'echo spaced\n' >'/srv/my job.sh'
