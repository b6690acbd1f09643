# The policy's renamed booleans, for the tasks that use an old name:
# Debian's policy ships none.
cat >/etc/selinux/default/booleans.subs_dist <<'SUBS'
# old name, new name
tender_old_cgi httpd_enable_cgi
   tender_old_ssi 	httpd_ssi_exec   
tender_slash ../enforce
tender_empty
tender_empty httpd_tty_comm
tender_dup httpd_use_nfs
tender_dup httpd_use_cifs
SUBS
