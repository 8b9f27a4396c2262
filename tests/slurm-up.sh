#!/bin/sh
# slurm-up.sh DIR - start a real single-node SLURM cluster on this machine for the test of
# `make grade-all SLURM=1`: munge, slurmctld and slurmd, state and logs in DIR, DIR/slurm.conf.
# Exit 0 when `sinfo` shows the node idle; 77 with a message when SLURM can't be installed or
# started here (not root, no apt-get, daemons refusing), which the test reports as skipped.
set -u
dir=$(mkdir -p "$1" && cd "$1" && pwd)
if ! command -v slurmctld >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1
fi
for tool in slurmctld slurmd munged sinfo sbatch; do
    command -v $tool >/dev/null 2>&1 || { echo "SLURM can't be installed here ($tool missing; apt-get install slurm-wlm munge as root)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "starting SLURM's daemons needs root"; exit 77; }
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    [ -s /etc/munge/munge.key ] || { dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null &&
        chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key; }
    mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null
    su -s /bin/sh munge -c /usr/sbin/munged 2>/dev/null || /usr/sbin/munged --force 2>/dev/null
    sleep 1
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 || { echo "munge could not be started"; exit 77; }
fi
host=$(hostname -s)
mkdir -p "$dir/state" "$dir/spool" "$dir/log"
cat > "$dir/slurm.conf" <<CONF
ClusterName=workbook
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=workbook Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld >/dev/null 2>&1 && slurmd >/dev/null 2>&1 || { echo "slurmctld or slurmd would not start (see $dir/log)"; exit 77; }
for i in $(seq 1 30); do
    [ "$(sinfo -h -o %t 2>/dev/null | head -n 1)" = idle ] && exit 0
    sleep 1
done
echo "the SLURM node never became idle (see $dir/log)"
exit 77
