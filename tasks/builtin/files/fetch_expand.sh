# Prints $p as the host expanded it (a leading ~ becomes a home
# directory), with no newline.
printf %s "$p"
