#!/bin/sh
# slurm-down.sh DIR - stop the daemons slurm-up.sh started in DIR (munge is left to the system).
for d in slurmd slurmctld; do
    [ -f "$1/$d.pid" ] && kill "$(cat "$1/$d.pid")" 2>/dev/null
done
exit 0
