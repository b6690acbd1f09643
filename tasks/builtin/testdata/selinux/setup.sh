# A second config file that names the policy but not the state.
printf '# another config\nSELINUXTYPE=default\n' >/etc/selinux/alt.conf
