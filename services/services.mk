# Services: the system program (nvx-system, placed by the firmware in the read-only
# program region) and the services library every user program links (names, launch
# info, placement). Included by the top Makefile after runtime/runtime.mk.
services_saved_default_goal := $(.DEFAULT_GOAL)

SERVICES_LIB := $(BUILD_ROOT)/user/services/libnvxsvc.a
SERVICES_LIB_OBJS := $(patsubst %.c,$(USER_OBJ_DIR)/%.o,$(wildcard services/lib/*.c))
SYSTEM_IMAGE := $(BUILD_ROOT)/user/nvx-system.elf
SYSTEM_OBJS := $(patsubst %.c,$(USER_OBJ_DIR)/%.o,$(wildcard services/system/*.c))

# Every user program links the services library (before libc: it uses it).
USER_RUNTIME += $(SERVICES_LIB)
USER_LINK_LIBS := -Wl,--start-group $(RUNTIME_LIB) $(SERVICES_LIB) -lc -lm -lgcc -Wl,--end-group

# The services' own sources share services/protocol.h, private to them.
$(SERVICES_LIB_OBJS) $(SYSTEM_OBJS): USER_CFLAGS += -Iservices

$(SERVICES_LIB): $(SERVICES_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(eval $(call nvx_user_program,$(SYSTEM_IMAGE),$(SYSTEM_OBJS)))

.DEFAULT_GOAL := $(services_saved_default_goal)
