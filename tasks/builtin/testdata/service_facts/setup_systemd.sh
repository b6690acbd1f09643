# systemd host: a running unit, a failed one, a masked one and a
# template, beside the image's own units and SysV scripts.
set -e
cat >/etc/systemd/system/tender-up.service <<'U'
[Unit]
Description=tender test daemon
[Service]
ExecStart=/bin/sleep infinity
[Install]
WantedBy=multi-user.target
U
cat >/etc/systemd/system/tender-fail.service <<'U'
[Unit]
Description=tender test unit that exits 1
[Service]
Type=oneshot
ExecStart=/bin/false
U
cat >/etc/systemd/system/tender-tpl@.service <<'U'
[Unit]
Description=tender template %i
[Service]
ExecStart=/bin/sleep infinity
U
systemctl daemon-reload
systemctl enable --now tender-up.service
systemctl start tender-fail.service || true
systemctl mask tender-masked.service
systemctl start tender-tpl@one.service
