#!/bin/sh
# The inside of tsklee's replay sandbox (see sandbox.mjs, which starts it under
# `unshare --mount --pid --fork --net --ipc --uts`): root in fresh mount, pid, network, IPC and
# host-name namespaces. Builds a new root on a tmpfs holding, read-only, /usr and /etc (with
# /etc/passwd, /etc/group and the host name of tsklee's POSIX model), fresh /dev (null, zero,
# full, urandom) and /tmp, no /proc but /proc/self/fd (the model has none: uptime, nproc, df
# read it; glibc needs the fd links), and the
# host paths given with --ro / --rw at the same paths; then runs the command there as the model's user (uid/gid 1000), with no capabilities.
#   sandbox.sh [--ro PATH]... [--rw PATH]... [--env NAME=VALUE]... -- COMMAND [ARG]...
# The command gets only the --env variables.
# The host keeps nothing of it but what the command writes under the --rw paths.
set -eu
new=/mnt
# / writable by all, as in the model (its permission checks ignore who asks)
mount -t tmpfs -o mode=1777 tsklee-sandbox "$new"
cd "$new"
mkdir usr etc dev tmp
for d in usr etc; do
  mount --bind "/$d" "$d"
  mount -o remount,bind,ro "$d"
done
for l in bin lib lib64 sbin; do ln -s "usr/$l" "$l"; done
mount -t tmpfs -o mode=755 tsklee-dev dev
mknod -m 666 dev/null c 1 3
mknod -m 666 dev/zero c 1 5
mknod -m 666 dev/full c 1 7
mknod -m 666 dev/urandom c 1 9
mount -t tmpfs -o mode=1777 tsklee-tmp tmp
# /proc/self/fd, and nothing else of /proc: glibc's lchmod (fchmodat with AT_SYMLINK_NOFOLLOW)
# goes through it and fails with EOPNOTSUPP without it (mkdir -m +s), where every real system
# has it; the rest stays hidden, as in the model (df, uptime, nproc would read it)
mkdir .tsklee-proc proc proc/self
mount -t proc -o nosuid,nodev,noexec tsklee-proc .tsklee-proc
ln -s /.tsklee-proc/self/fd proc/self/fd
# tsklee's POSIX model: users root (0) and user (1000), groups the same, host name tsklee
mount -t tmpfs -o mode=755 tsklee-ids "$new/tmp"
printf 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:user:/home/user:/bin/sh\n' > tmp/passwd
printf 'root:x:0:\nuser:x:1000:\n' > tmp/group
mount --bind tmp/passwd etc/passwd
mount --bind tmp/group etc/group
umount tmp
hostname tsklee
envs=""  # NAME=VALUE words (no spaces in values)
while [ $# -gt 0 ]; do
  case "$1" in
    --env)
      envs="$envs $2"
      shift 2
      ;;
    --ro | --rw)
      if [ -d "$2" ]; then
        mkdir -p "$new$2"
      else
        mkdir -p "$new$(dirname "$2")"
        : > "$new$2"
      fi
      mount --bind "$2" "$new$2"
      if [ "$1" = --ro ]; then mount -o remount,bind,ro "$new$2"; else chown 1000:1000 "$new$2"; fi
      shift 2
      ;;
    --) shift; break ;;
    *) echo "sandbox.sh: unexpected argument $1" >&2; exit 2 ;;
  esac
done
cd /
exec chroot "$new" /usr/bin/setpriv --reuid=1000 --regid=1000 --clear-groups --inh-caps=-all --bounding-set=-all -- /usr/bin/env -i $envs "$@"
