#!/bin/sh
# hopper-variants.sh - lab 12's reference at the tile shapes and ring depths a first version would
# pick, as whole submissions for a threshold study (scripts/gpu-verify.sh study): the stages'
# kernels are the reference's, only the parameters its entry points launch them with differ.
#   variant_a.cu: stage 1 in 64 x 128 tiles (one m64 MMA a k step, five blocks an SM); rings of
#                 3 stages in stage 2, 4 in stage 3, 3 in stage 4
#   variant_b.cu: stage 1 in 64 x 128 tiles; rings of 4 in stage 2, 2 in stages 3 and 4
# (the reference: 128 x 128; rings of 2, 3 and 4).
# usage: scripts/studies/hopper-variants.sh OUTDIR     (writes OUTDIR/variant_a.cu, OUTDIR/variant_b.cu)
set -eu
out=${1:?usage: hopper-variants.sh OUTDIR}
ref=solutions/12-hopper-gemm/hopper_gemm.cu
mkdir -p "$out"
variant() { # name wgmma-BM tma-stages specialised-stages persistent-stages
    sed -e "s/launch_wgmma<128>(/launch_wgmma<$2>(/" -e "s/launch_tma<128, 2>(/launch_tma<128, $3>(/" \
        -e "s/launch_specialised<3>(/launch_specialised<$4>(/" -e "s/launch_persistent<true, 4>(/launch_persistent<true, $5>(/" \
        "$ref" > "$out/$1.cu"
    # every one of the four launches changed, or the reference moved on and this script must follow
    n=$(grep -c "launch_wgmma<$2>(M\|launch_tma<128, $3>(M\|launch_specialised<$4>(M\|launch_persistent<true, $5>(M" "$out/$1.cu")
    [ "$n" -eq 4 ] || { echo "hopper-variants.sh: $ref's entry points are not where this script looks" >&2; exit 2; }
}
variant variant_a 64 3 4 3
variant variant_b 64 4 2 2
echo "hopper-variants.sh: $out/variant_a.cu $out/variant_b.cu"
