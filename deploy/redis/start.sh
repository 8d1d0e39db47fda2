#!/bin/sh
# Starts Redis for the compose example with its password from the compose secret. The password
# goes into a config file, not onto the command line (where `ps` would show it); the other
# settings come as arguments from compose.yaml. The image's own entrypoint then drops to the
# redis user.
set -eu
umask 077

conf=/tmp/redis-auth.conf
printf 'requirepass "%s"\n' "$(cat /run/secrets/redis_password)" > "$conf"
chown redis:redis "$conf"
exec docker-entrypoint.sh redis-server "$conf" "$@"
