#!/usr/bin/env bash
# Two `rummy21 serve` processes behind nginx, on a PostgreSQL and a Redis already running: what
# the systemd units and nginx/rummy21.conf set up on a server, run by hand in one folder.
#
#   deploy/run.sh DB_URL REDIS_URL [PORT]           serve on http://127.0.0.1:PORT/ until Ctrl-C
#   deploy/run.sh --check DB_URL REDIS_URL [PORT]   start, play a table through nginx, kill the
#                                                   process that runs it, play on, stop
#
# PORT is nginx's (default 8080); the two servers take PORT+1 and PORT+2. Needs nginx and
# rummy21 with its server, postgres and broker extras (pip install 'rummy21[server,postgres,broker]').
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
check=""
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
db="${1:?usage: deploy/run.sh [--check] DB_URL REDIS_URL [PORT]}"
broker="${2:?usage: deploy/run.sh [--check] DB_URL REDIS_URL [PORT]}"
port="${3:-8080}"
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$nginx_bin" ] || { echo "error: nginx is not installed (apt-get install nginx-light)" >&2; exit 2; }

work="$(mktemp -d)"
pids=()
stop() {
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap stop EXIT

for n in 1 2; do
    "${RUMMY21:-rummy21}" serve --host 127.0.0.1 --port $((port + n)) --db "$db" --broker "$broker" \
        --node "deploy-$n-$$" --forwarded-allow-ips 127.0.0.1 --log-level warning \
        >"$work/serve$n.log" 2>&1 &
    pids+=($!)
    echo "server $n: pid $!, port $((port + n))"
done

# nginx with the site file as shipped, its ports moved to this run's.
sed -e "s/listen 80;/listen 127.0.0.1:$port;/" \
    -e "s/127.0.0.1:8021/127.0.0.1:$((port + 1))/" -e "s/127.0.0.1:8022/127.0.0.1:$((port + 2))/" \
    "$here/nginx/rummy21.conf" >"$work/site.conf"
cat >"$work/nginx.conf" <<CONF
daemon on;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/body;
    proxy_temp_path $work/proxy;
    fastcgi_temp_path $work/fastcgi;
    uwsgi_temp_path $work/uwsgi;
    scgi_temp_path $work/scgi;
    include $work/site.conf;
}
CONF

for n in 1 2; do  # both servers up
    for _ in $(seq 150); do
        python3 - "$((port + n))" <<'PY' && break
import sys, urllib.request
try:
    urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1)
except Exception:
    sys.exit(1)
PY
        sleep 0.2
    done
done
"$nginx_bin" -c "$work/nginx.conf"
echo "nginx: http://127.0.0.1:$port/"

if [ -n "$check" ]; then
    python3 "$here/check.py" "$port" "$db" "deploy-1-$$=${pids[0]}" "deploy-2-$$=${pids[1]}"
    echo "check passed"
else
    wait -n "${pids[@]}"
fi
