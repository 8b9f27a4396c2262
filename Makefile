# Makefile - the workbook's one Makefile (GNU Make). Start with `make help`.
#
# Layout: labs/NN-name (student work), solutions/NN-name (references), grading/NN-name (grader:
# lab.c, thresholds.conf, planted/), handouts/NN-name.md, common/ (the shared harness, a folder by
# the process its code runs in: both/ scorer/ runner/ probes/ audit/ tools/; README.md draws it).
# A lab is found by its grading/NN-name/lab.c; adding one touches nothing else here. A lab may
# add grading/NN-name/lab.mk, which only sets variables (LAB_CFLAGS_<lab>).

SHELL   := /bin/sh
CC      := gcc
# Messages are cut to their buffers on purpose, so snprintf truncation is not an error; a stage
# table may leave its optional hooks (lab.h) out, so a missing initializer is not one either.
# The harness's folders (README.md, "How the grader is built"); its objects all go to $(BUILD)/common/.
COMMON_DIRS := both scorer runner probes audit tools
COMMON_INC  := $(addprefix -Icommon/,$(COMMON_DIRS))
CFLAGS  := -std=c11 -O2 -g -Wall -Wextra -Werror -Wno-format-truncation -Wno-missing-field-initializers $(COMMON_INC)
BUILD   := build
WORK    ?= labs
LABS    := $(sort $(patsubst grading/%/lab.c,%,$(wildcard grading/[0-9][0-9]-*/lab.c)))
GPU_LABS :=
-include $(wildcard grading/*/lab.mk)

# CUDA: NVCC ?= nvcc. CUDA_ARCH is the GPU's compute capability without the dot (90 on Hopper),
# read from nvidia-smi, or given: `make grade CUDA_ARCH=90`. With no GPU the CUDA code is still
# compiled, for a default set of architectures, and GPU stages are reported skipped.
NVCC      ?= nvcc
NVCC_PATH := $(shell command -v $(NVCC) 2>/dev/null)
CUDA_HOME ?= $(if $(NVCC_PATH),$(patsubst %/bin/nvcc,%,$(realpath $(NVCC_PATH))))
CUDA_ARCH ?= $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '. ')
comma     := ,
NVCC_ARCH := $(if $(CUDA_ARCH),-gencode=arch=compute_$(CUDA_ARCH)$(comma)code=sm_$(CUDA_ARCH),\
               -gencode=arch=compute_80$(comma)code=sm_80 -gencode=arch=compute_90$(comma)code=sm_90)
NVCCFLAGS := -O2 -std=c++17 $(COMMON_INC) $(NVCC_ARCH)
NVCC_FOUND := $(NVCC_PATH)
export CUDA_ARCH CUDA_HOME NVCC_FOUND

SCORER_OBJS := $(addprefix $(BUILD)/common/,util.o rng.o stats.o config.o json.o proto.o sandbox.o \
                 calib.o tool.o build.o elf.o callsite.o audit.o technique.o verify.o problems.o cases.o checks.o session.o verdict.o judge.o submission.o bench.o \
                 ncu.o grade.o report.o)
# The runner's copies are built without OpenMP: the scorer's references use it, the runner never
# calls them, and a runner must not bring in libgomp's threads unless the student's lab does.
RUNNER_OBJS := $(addprefix $(BUILD)/common/runner-,util.o rng.o proto.o seccomp.o problems.o runner.o)
HEADERS     := $(wildcard common/*/*.h)

# LAB=01 or LAB=01-cpu-matvec: an exact name, or a number followed by the rest of a name.
ifneq ($(strip $(LAB)),)
SELECTED := $(filter $(LAB) $(LAB)-%,$(LABS))
else
SELECTED := $(LABS)
endif

.PHONY: all help grade check calibrate bench list clean tools handin dist grade-all autolab gradescope hostile walkthrough handouts roofline profile emulate
.DEFAULT_GOAL := help

help:
	@echo "make grade [LAB=01] [WORK=labs] [SEED=0x...]   grade your work (exit 0 all pass, 1 a failure, 2 usage)"
	@echo "make grade LAB=01 STAGE=rows                    grade one stage only (make list shows the stages)"
	@echo "make grade LAB=01 SANITIZE=1                    correctness only, under AddressSanitizer and UBSan (CPU) or compute-sanitizer (GPU)"
	@echo "make walkthrough LAB=01                         the next stage to work on: its task, its hint, how to grade it"
	@echo "make profile LAB=01 STAGE=rows                  the stage's timed run under perf stat (CPU) or ncu (GPU), each figure explained"
	@echo "make emulate LAB=09 [STAGE=warp] [SIZE=\"m=3 n=31\"]  a CUDA lab's kernels run on the CPU: their logic, where no GPU is"
	@echo "make check                                      the workbook's own test suite; in the student kit, your labs checked"
	@echo "make bench LAB=01 [STAGE=rows] [MAX_MIB=64]     a fuller table over sizes and -O levels (one stage: STAGE=; rows over MAX_MIB skipped)"
	@echo "make roofline [LAB=01] [WORK=labs]              redraw the roofline charts of the last grading (build/results/*.svg)"
	@echo "make calibrate                                  measure this machine's ceilings again"
	@echo "make list                                       the labs and their stages"
	@echo "make handouts [LAB=01]                          the handouts as HTML pages in $(BUILD)/handouts (needs pandoc)"
	@echo "make handin                                     a tarball of the files you edit, to hand in"
	@echo "make grade-all SUBMISSIONS=dir [FORCE=1] [SLURM=1]  (instructors) grade every submission; build/gradebook.csv"
	@echo "make dist | make gradescope                     (instructors) the student kit; the Gradescope autograder"
	@echo "make hostile [LAB=NN]                           (instructors) the planted cheats and bugs, each rejected?"
	@echo "make autolab LAB=NN                             grade; the last line is Autolab's scores JSON"
	@echo "make clean                                      remove $(BUILD)/ (results and calibration too)"
	@echo "labs: $(LABS)"

# ---------------------------------------------------------------- building the harness

# A harness object from whichever folder holds its source (one pair of rules a folder).
# ($$(CFLAGS), not $(CFLAGS): expanded when the rule runs, so that an object's own flags below apply.)
define common_rules
$(BUILD)/common/%.o: common/$(1)/%.c $(filter-out common/runner/cuda_check.h common/runner/gpu.h,$(HEADERS))
	@mkdir -p $$(@D)
	$(CC) $$(CFLAGS) -fopenmp -c $$< -o $$@
$(BUILD)/common/runner-%.o: common/$(1)/%.c $(filter-out common/runner/cuda_check.h common/runner/gpu.h,$(HEADERS))
	@mkdir -p $$(@D)
	$(CC) $$(CFLAGS) -Wno-unknown-pragmas -c $$< -o $$@
endef
$(foreach d,$(COMMON_DIRS),$(eval $(call common_rules,$(d))))

# The bandwidth probes must be compiled as well as the student's code is, or the ceiling is low.
$(BUILD)/common/calib.o: CFLAGS += -O3 -march=native
# The scorer's copy of every timed call's input (gigabytes a stage on a GPU): nearbyint inlined.
$(BUILD)/common/proto.o $(BUILD)/common/problems.o: CFLAGS += -O3 -march=native

# OpenBLAS's dgemm rate, the ceiling of the matrix-multiply labs, in a process of its own.
$(BUILD)/common/blas-probe: common/probes/blas_probe.c $(BUILD)/common/util.o $(BUILD)/common/stats.o
	$(CC) $(CFLAGS) -o $@ $^ -lopenblas -lm

# Results files into a gradebook (CSV), Autolab's scores line and Gradescope's results.json.
$(BUILD)/common/gradebook: common/tools/gradebook.c $(BUILD)/common/util.o
	$(CC) $(CFLAGS) -o $@ $^

# A results file as a roofline chart: a gnuplot script (common/tools/roofline.sh runs gnuplot on it).
$(BUILD)/common/roofline: common/tools/roofline.c $(BUILD)/common/util.o $(HEADERS)
	$(CC) $(CFLAGS) -o $@ common/tools/roofline.c $(BUILD)/common/util.o -lm

# The GPU side of the runner and the probe (device facts and ceilings), when nvcc is here.
# (gpu_register.o, built by the rule above: the run-time guard on device-code registration.)
$(BUILD)/common/gpu.o: common/runner/gpu.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(CUDA_HOME)/include -c $< -o $@
$(BUILD)/common/gpu_kernels.o: common/runner/gpu_kernels.cu common/runner/cuda_check.h
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@
# The probe in three objects, built side by side: its polynomial kernels, unrolled to the degree a
# lab names (PROBE_FLAGS, from its lab.mk), are most of its compile.
$(BUILD)/common/gpu_probe.o: common/probes/gpu_probe.cu common/runner/cuda_check.h common/probes/gpu_probe_poly.h
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@
$(BUILD)/common/gpu_probe_poly.o: common/probes/gpu_probe_poly.cu common/runner/cuda_check.h common/probes/gpu_probe_poly.h $(wildcard grading/*/lab.mk)
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(PROBE_FLAGS) -c $< -o $@
$(BUILD)/common/gpu-probe: $(BUILD)/common/gpu_probe.o $(BUILD)/common/gpu_probe_poly.o $(BUILD)/common/gpu_kernels.o
	$(NVCC) $(NVCCFLAGS) -o $@ $^ -lcublas

# Per lab: the scorer (harness + lab.c) and the runner base (runner + lab.c with LAB_RUNNER, and
# the lab's runner.c where it has one: runner-side code of its own, such as lab 05's wrappers),
# which the grader links with the audited student object. A GPU lab's runner needs nvcc.
define lab_rules
$(BUILD)/grading/$(1)/lab.o: grading/$(1)/lab.c $(HEADERS) $(wildcard grading/$(1)/*.h)
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS) -fopenmp $(LAB_CFLAGS_$(1)) -Igrading/$(1) -c $$< -o $$@
$(BUILD)/grading/$(1)/lab-runner.o: grading/$(1)/lab.c $(HEADERS) $(wildcard grading/$(1)/*.h)
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS) -Wno-unknown-pragmas $(LAB_CFLAGS_$(1)) $(if $(filter $(1),$(GPU_LABS)),-I$(CUDA_HOME)/include) -DLAB_RUNNER \
	    -Igrading/$(1) -c $$< -o $$@
$(BUILD)/grading/$(1)/runner-side.o: grading/$(1)/runner.c $(HEADERS) $(wildcard grading/$(1)/*.h)
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS) -Wno-unknown-pragmas $(LAB_CFLAGS_$(1)) $(if $(filter $(1),$(GPU_LABS)),-I$(CUDA_HOME)/include) -DLAB_RUNNER \
	    -Igrading/$(1) -c $$< -o $$@
$(BUILD)/grading/$(1)/grade: $(SCORER_OBJS) $(BUILD)/grading/$(1)/lab.o
	$(CC) -fopenmp -o $$@ $$^ -lm
$(BUILD)/grading/$(1)/runner-base.o: $(RUNNER_OBJS) $(BUILD)/grading/$(1)/lab-runner.o \
                                     $(if $(wildcard grading/$(1)/runner.c),$(BUILD)/grading/$(1)/runner-side.o) \
                                     $(if $(filter $(1),$(GPU_LABS)),$(BUILD)/common/gpu.o $(BUILD)/common/gpu_kernels.o \
                                       $(BUILD)/common/gpu_register.o)
	ld -r -o $$@ $$^
endef
$(foreach l,$(LABS),$(eval $(call lab_rules,$(l))))

# Without nvcc a GPU lab gets only its scorer, which reports its stages skipped.
RUNNABLE := $(if $(NVCC_PATH),$(LABS),$(filter-out $(GPU_LABS),$(LABS)))
TOOLS := $(foreach l,$(LABS),$(BUILD)/grading/$(l)/grade) \
         $(foreach l,$(RUNNABLE),$(BUILD)/grading/$(l)/runner-base.o) \
         $(if $(and $(NVCC_PATH),$(GPU_LABS)),$(BUILD)/common/gpu-probe) $(BUILD)/common/blas-probe \
         $(BUILD)/common/gradebook $(BUILD)/common/roofline
tools: $(TOOLS)

# The tools build on every core (nothing is timed while they compile).
JOBS := $(shell nproc 2>/dev/null || echo 1)

# ---------------------------------------------------------------- grading

# `make grade` must exit 1 when a stage fails, but make turns any failed recipe into status 2.
# So the grading runs while this file is read, and its status picks make's own: 0 as is, 1 by
# switching make to question mode (-q) with a target out of date, 2 through $(error). (Make 4.3
# does not export variables to $(shell), so the command names the ones it passes.)
GRADE_CMD = sh common/tools/deps.sh grade >&2 && $(MAKE) --no-print-directory -s -j$(JOBS) tools >&2 && \
            NVCC_FOUND="$(NVCC_PATH)" CUDA_ARCH="$(CUDA_ARCH)" CUDA_HOME="$(CUDA_HOME)" SANITIZE="$(SANITIZE)" \
            STAGE="$(STAGE)" sh common/tools/grade-labs.sh "$(BUILD)" "$(WORK)" "$(LAB)" "$(SEED)" $(SELECTED) >&2
ifeq ($(MAKECMDGOALS),grade)
GRADE_STATUS := $(shell $(GRADE_CMD); echo $$?)
ifeq ($(GRADE_STATUS),1)
MAKEFLAGS += -q
else ifneq ($(GRADE_STATUS),0)
$(error grading stopped (see the message above))
endif
endif
grade:
	@:

bench:
	@test -n "$(SELECTED)" -a "$(words $(SELECTED))" = 1 || { echo "make bench needs one lab: LAB=NN (labs: $(LABS))" >&2; exit 2; }
	@sh common/tools/deps.sh grade
	@$(MAKE) --no-print-directory -s -j$(JOBS) tools
	@$(BUILD)/grading/$(SELECTED)/grade --bench --lab-dir grading/$(SELECTED) --work $(WORK) --build $(BUILD) \
	    --runner-base $(BUILD)/grading/$(SELECTED)/runner-base.o $(if $(SEED),--seed $(SEED)) $(if $(STAGE),--stage $(STAGE)) \
	    $(if $(MAX_MIB),--max-mib $(MAX_MIB)) \
	    $(if $(CUDA_ARCH),--cuda-arch $(CUDA_ARCH)) $(if $(CUDA_HOME),--cuda-home $(CUDA_HOME)) --nvcc "$(NVCC_PATH)"

profile:
	@test -n "$(SELECTED)" -a "$(words $(SELECTED))" = 1 -a -n "$(STAGE)" || { echo "make profile needs one lab and one stage: LAB=NN STAGE=name (make list shows them)" >&2; exit 2; }
	@$(MAKE) --no-print-directory -s -j$(JOBS) tools
	@$(BUILD)/grading/$(SELECTED)/grade --profile "$(STAGE)" --lab-dir grading/$(SELECTED) --work $(WORK) --build $(BUILD) \
	    --runner-base $(BUILD)/grading/$(SELECTED)/runner-base.o $(if $(SEED),--seed $(SEED)) \
	    $(if $(CUDA_ARCH),--cuda-arch $(CUDA_ARCH)) $(if $(CUDA_HOME),--cuda-home $(CUDA_HOME)) --nvcc "$(NVCC_PATH)"

walkthrough:
	@test -n "$(SELECTED)" -a "$(words $(SELECTED))" = 1 || { echo "make walkthrough needs one lab: LAB=NN (labs: $(LABS))" >&2; exit 2; }
	@$(MAKE) --no-print-directory -s -j$(JOBS) tools
	@sh common/tools/walkthrough.sh $(BUILD) $(WORK) $(SELECTED)

# A CUDA lab's kernels run on the CPU (scripts/emu: one thread a CUDA thread), each stage on small
# and odd sizes against the CPU's answer: their logic, where no GPU is; never their speed. Exit 0
# when every stage checked is right, 1 when one is wrong, 2 for a usage error.
emulate:
	@test -n "$(SELECTED)" -a "$(words $(SELECTED))" = 1 || { echo "make emulate needs one lab: LAB=NN (labs: $(LABS))" >&2; exit 2; }
	@test -f scripts/emu/check$(firstword $(subst -, ,$(SELECTED))).cpp || { echo "make emulate: $(SELECTED) has no CPU emulator$(if $(NO_EMULATOR_$(SELECTED)),: $(NO_EMULATOR_$(SELECTED))) (labs with one: $(patsubst scripts/emu/check%.cpp,%,$(wildcard scripts/emu/check*.cpp)))" >&2; exit 2; }
	@$(MAKE) --no-print-directory -s -j$(JOBS) tools
	@src=$$($(BUILD)/grading/$(SELECTED)/grade --list --lab-dir grading/$(SELECTED) --build $(BUILD) | sed -n '1s/.*(edit \(.*\))$$/\1/p'); \
	    test -f "$(WORK)/$(SELECTED)/$$src" || { echo "make emulate: no $(WORK)/$(SELECTED)/$$src" >&2; exit 2; }; \
	    EMU_STAGE="$(STAGE)" EMU_SIZE="$(SIZE)" sh scripts/emu/run.sh $(firstword $(subst -, ,$(SELECTED))) "$(WORK)/$(SELECTED)/$$src"

# The charts `make grade` draws, again from the results files (gnuplot; no grading).
roofline: $(BUILD)/common/roofline
	@sh common/tools/roofline.sh "$(BUILD)" "$(WORK)" "$(LAB)" $(SELECTED)

calibrate: $(TOOLS)
	@for l in $(SELECTED); do $(BUILD)/grading/$$l/grade --calibrate --lab-dir grading/$$l --build $(BUILD) || exit 2; done

list: $(TOOLS)
	@for l in $(LABS); do $(BUILD)/grading/$$l/grade --list --lab-dir grading/$$l --build $(BUILD); done

# ---------------------------------------------------------------- handouts

# One self-contained HTML page a lab, $(BUILD)/handouts/NN-name.html, from handouts/NN-name.md:
# each handout checked against the template first, code quoted from the real files at render
# time (common/tools/handouts.sh says how). PANDOC=/path/to/pandoc picks another pandoc.
PANDOC ?= pandoc
handouts:
	@test -n "$(SELECTED)" || { echo "make handouts: no lab matches LAB=$(LAB) (labs: $(LABS))" >&2; exit 2; }
	@PANDOC="$(PANDOC)" sh common/tools/handouts.sh $(BUILD)/handouts $(foreach l,$(SELECTED),handouts/$(l).md)

# ---------------------------------------------------------------- handing in, and grading many

handin: tools
	@sh common/tools/kit.sh handin $(BUILD) $(LABS)

dist:
	@sh common/tools/kit.sh dist $(BUILD)

gradescope:
	@test -z "$(STAGE)" -o "$(words $(SELECTED))" = 1 || { echo "make gradescope STAGE=$(STAGE) needs one lab: LAB=NN" >&2; exit 2; }
	@$(if $(STAGE),$(MAKE) --no-print-directory -s -j$(JOBS) tools)
	@STAGE="$(STAGE)" sh common/tools/kit.sh gradescope $(BUILD) $(if $(LAB),$(SELECTED))

# Every planted broken or hostile submission, graded and checked to be rejected for its reason.
hostile: tools
	@sh common/tools/hostile.sh $(BUILD) $(sort $(wildcard $(foreach l,$(SELECTED),grading/$(l)/planted/*.c grading/$(l)/planted/*.cu)))

# One submission at a time (a GPU is never shared between two timing jobs); resumable. SLURM=1:
# a job array instead, one exclusive node (and for GPU labs one GPU) a submission.
grade-all:
	@test -n "$(SUBMISSIONS)" || { echo "make grade-all needs SUBMISSIONS=dir (a tarball or labs/-shaped folder per student)" >&2; exit 2; }
	@sh common/tools/deps.sh grade >&2
	@$(MAKE) --no-print-directory -s -j$(JOBS) tools >&2
	@NVCC_FOUND="$(NVCC_PATH)" CUDA_ARCH="$(CUDA_ARCH)" CUDA_HOME="$(CUDA_HOME)" STAGE="$(STAGE)" \
	    sh common/tools/$(if $(SLURM),grade-slurm.sh,grade-all.sh) "$(BUILD)" "$(SUBMISSIONS)" "$(FORCE)" \
	    $(if $(SLURM),$(if $(filter $(GPU_LABS),$(SELECTED)),1,0)) $(SELECTED)

# Autolab: grading output first, then its one line of scores, last on stdout.
autolab:
	@NVCC_FOUND="$(NVCC_PATH)" CUDA_ARCH="$(CUDA_ARCH)" CUDA_HOME="$(CUDA_HOME)" $(MAKE) --no-print-directory -s -j$(JOBS) tools >&2
	@NVCC_FOUND="$(NVCC_PATH)" CUDA_ARCH="$(CUDA_ARCH)" CUDA_HOME="$(CUDA_HOME)" \
	    sh common/tools/grade-labs.sh "$(BUILD)" "$(WORK)" "$(LAB)" "$(SEED)" $(SELECTED) >&2; \
	    $(BUILD)/common/gradebook autolab $(foreach l,$(SELECTED),$(BUILD)/results/$(l).json)

# ---------------------------------------------------------------- the workbook's own tests

TEST_SRCS := $(wildcard tests/*.c)
$(BUILD)/tests/run-tests: $(TEST_SRCS) $(filter-out $(BUILD)/common/grade.o $(BUILD)/common/bench.o,$(SCORER_OBJS)) \
                          $(BUILD)/grading/01-cpu-matvec/lab.o tests/tests.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Itests -o $@ $(TEST_SRCS) $(filter %.o,$^) \
	    $$(pkg-config --cflags --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -pthread) -lm

# The sandbox test's two programs (tests/sandbox/, run by tests/test_sandbox.c): a stand-in runner
# that enters the filter as a GPU lab's runner does and tries one way out, and the scorer's side,
# which starts it with runner_start and watches what reaches other processes.
SANDBOX_TEST := $(BUILD)/tests/sandbox-runner $(BUILD)/tests/sandbox-check $(BUILD)/tests/sandbox-profiler \
                $(BUILD)/tests/sandbox-window
# (Its stack executable, as a student's file can ask: the sandbox must take that right away.)
$(BUILD)/tests/sandbox-runner: tests/sandbox/runner.c tests/sandbox/routes.h $(BUILD)/common/runner-seccomp.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/sandbox -o $@ $< $(BUILD)/common/runner-seccomp.o -Wl,-z,execstack
# ... and the runner's files under `make profile` (Landlock beneath ncu's lock folder alone).
$(BUILD)/tests/sandbox-profiler: tests/sandbox/profiler.c $(BUILD)/common/runner-seccomp.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon/runner -o $@ $< $(BUILD)/common/runner-seccomp.o
# ... and a runner that turns on the output window it is given (tests/sandbox/window.c).
$(BUILD)/tests/sandbox-window: tests/sandbox/window.c common/both/proto.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<
$(BUILD)/tests/sandbox-check: tests/sandbox/check.c tests/sandbox/routes.h $(BUILD)/common/sandbox.o \
                              $(BUILD)/common/util.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -Itests/sandbox -o $@ $< $(BUILD)/common/sandbox.o $(BUILD)/common/util.o -lm

# The GPU timer's hold and its release by cudaDeviceSynchronize (tests/gpu/timer_hold.cu), linked as
# every GPU runner is (the options read from gpu_register.h, their one home).
GPU_TEST := $(if $(NVCC_PATH),$(BUILD)/tests/gpu-timer-hold)
$(BUILD)/tests/gpu-timer-hold: tests/gpu/timer_hold.cu $(BUILD)/common/gpu_kernels.o $(BUILD)/common/gpu_register.o
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -o $@ $^ \
	    $(shell sed -n 's/^#define GPU_REGISTER_LDFLAGS "\(.*\)"$$/\1/p' common/runner/gpu_register.h)

ifneq ($(wildcard solutions/.),)
check:
	@sh common/tools/deps.sh check
	@$(MAKE) --no-print-directory -j$(JOBS) tools $(BUILD)/tests/run-tests $(SANDBOX_TEST) $(GPU_TEST)
	@$(BUILD)/tests/run-tests
else
# The student kit (make dist: no solutions/): `make check` is the student's own check, every lab
# in labs/ (or LAB=NN) graded, correctness and speed, into $(BUILD)/check/ so the results of
# `make grade` are never touched. It installs only what grading needs and starts nothing.
check:
	@sh common/tools/deps.sh grade
	@$(MAKE) --no-print-directory -s -j$(JOBS) tools
	@NVCC_FOUND="$(NVCC_PATH)" CUDA_ARCH="$(CUDA_ARCH)" CUDA_HOME="$(CUDA_HOME)" STAGE="$(STAGE)" \
	    RESULTS_DIR="$(BUILD)/check" sh common/tools/grade-labs.sh "$(BUILD)" "$(WORK)" "$(LAB)" "$(SEED)" $(SELECTED); \
	    status=$$?; echo; \
	    if [ $$status = 0 ]; then echo "check: every graded stage of $(if $(LAB),lab $(LAB),every lab in $(WORK)/) passes"; \
	    else echo "check: not yet: some stages fail (above; make grade LAB=NN shows one lab)"; fi; exit $$status
endif

clean:
	rm -rf $(BUILD)
