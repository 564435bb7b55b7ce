# CAP Bench and LBM sweeps (scripts/weak-scaling --help; README "Weak scaling").
#   make weak-scaling BOARD=mppa256 CLASS=small    the sweep: CSV, plots, summary in OUT
#   make run-sweep                                 the short sweep `make run` will become
# These make variables pass through to the driver when set: CLASS (default small), APPS,
# BUILDS, KERNEL_OPTS, RANKS, MAPS, PPC, REPEATS, OUT, TIMEOUT, JOBS, LBM_CONFIGS.
.PHONY: weak-scaling run-sweep
CLASS ?= small
weak_scaling_options = --board $(BOARD) \
	$(if $(APPS),--apps "$(APPS)") $(if $(BUILDS),--builds "$(BUILDS)") \
	$(if $(KERNEL_OPTS),--kernel-opts "$(KERNEL_OPTS)") $(if $(MAPS),--maps "$(MAPS)") \
	$(if $(PPC),--ppc $(PPC)) $(if $(REPEATS),--repeats $(REPEATS)) $(if $(TIMEOUT),--timeout $(TIMEOUT)) \
	$(if $(JOBS),--jobs $(JOBS)) $(if $(LBM_CONFIGS),--lbm-configs "$(LBM_CONFIGS)")

weak-scaling: deps
	$(MAKE) --no-print-directory BOARD=$(BOARD) all
	scripts/weak-scaling $(weak_scaling_options) --class $(CLASS) $(if $(RANKS),--ranks "$(RANKS)") \
		$(if $(OUT),--out "$(OUT)")

# Boots the board for every point of a short sweep: fn gf km (and A2A) in class test at 1
# rank, one full cluster and every cluster, all builds, and LBM on 1, 2 and every cluster;
# prints the summary and writes the plots. Starts afresh each time (the programs may have
# changed).
RUN_SWEEP_OUT = $(if $(OUT),$(OUT),$(BUILD_ROOT)/weak-scaling/run-$(BOARD))
run-sweep: deps
	$(MAKE) --no-print-directory BOARD=$(BOARD) all
	rm -rf $(RUN_SWEEP_OUT)
	scripts/weak-scaling $(weak_scaling_options) --class test $(if $(RANKS),--ranks "$(RANKS)",--short) \
		--out $(RUN_SWEEP_OUT)
