#!/bin/sh
# Starts SeaweedFS for the compose example: master, volume server, filer and S3 gateway in one
# process (`weed server -s3`). The S3 identity's keys come from the compose secrets (the same
# files the Render Desk nodes read) and are written into a copy of s3.json under /tmp, so no key
# is stored in the repository or shown on a command line.
set -eu
umask 077

key="$(cat /run/secrets/s3_access_key_id)"
secret="$(cat /run/secrets/s3_secret_access_key)"
case "$key$secret" in
  *[!A-Za-z0-9]*)
    echo "seaweedfs: the S3 keys must be letters and digits only (deploy/make-secrets.sh makes such keys)." >&2
    exit 2
    ;;
esac
sed -e "s/__ACCESS_KEY_ID__/$key/" -e "s/__SECRET_ACCESS_KEY__/$secret/" \
  /etc/render-desk/s3.json > /tmp/s3.json

# -volume.max=0: as many volumes as the disk holds; 1 GiB volumes suit a small installation.
exec weed server \
  -dir=/data \
  -ip=seaweedfs \
  -ip.bind=0.0.0.0 \
  -master.volumeSizeLimitMB=1024 \
  -volume.max=0 \
  -s3 \
  -s3.port=8333 \
  -s3.config=/tmp/s3.json
