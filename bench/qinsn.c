/*
 * A qemu-user TCG plugin counting guest instructions executed, for the
 * programs callgrind cannot measure (i386 under qemu-user):
 *
 *   qemu-i386 -plugin file=qinsn.so,out=/abs/path PROG [ARGS...]
 *
 * Each translated block adds its instruction count to a counter every
 * time it runs, by inline adds qemu emits in the block (no call), so the
 * count costs little more than the run.  The block's last instruction adds
 * its own 1: qemu 7.2's i386 translator drops an instruction that would
 * cross into another page from the end of a block after the plugin was
 * told of it, and qemu_plugin_tb_n_insns still counts it; the dropped
 * instruction's code, its inline add included, is removed.  At exit
 * one line "<instructions> <blocks executed> <vcpus>" is appended to the
 * out file, opened only then so the program never sees it among its
 * descriptors.
 *
 * The adds are not atomic: a program with threads (more than one vcpu)
 * may lose some, and a process that forks appends one line per process,
 * each with the counts from before the fork; bench/qemucount.py takes
 * the count only from one line naming one vcpu.
 *
 * Built against qemu 7.2's plugin API, version 1.  The few declarations
 * used are written out here, so no qemu header is needed.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
/* only passed through: its layout is not needed */
typedef struct qemu_info_t qemu_info_t;

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op, void *ptr,
					      uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn;
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op, void *ptr,
						uint64_t imm);
void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id,
				       void (*cb)(qemu_plugin_id_t, unsigned int));
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    void (*cb)(qemu_plugin_id_t, void *), void *userdata);

EXPORT int qemu_plugin_version = 1;
EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			       int argc, char **argv);

static uint64_t insns, blocks;
static unsigned vcpus;
static const char *out;

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	if (!n)
		return;
	if (n > 1)
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insns,
							 n - 1);
	qemu_plugin_register_vcpu_insn_exec_inline(qemu_plugin_tb_get_insn(tb, n - 1),
						   QEMU_PLUGIN_INLINE_ADD_U64, &insns, 1);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &blocks, 1);
}

static void vcpu_started(qemu_plugin_id_t id, unsigned int index)
{
	(void)id;
	(void)index;
	__atomic_add_fetch(&vcpus, 1, __ATOMIC_RELAXED);
}

static void finished(qemu_plugin_id_t id, void *userdata)
{
	char line[96];
	int fd, n;

	(void)id;
	(void)userdata;
	n = snprintf(line, sizeof line, "%llu %llu %u\n", (unsigned long long)insns,
		     (unsigned long long)blocks, vcpus);
	fd = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	/* one write, so the lines of a process and its children stay whole */
	if (fd < 0 || write(fd, line, n) != n)
		fprintf(stderr, "qinsn: cannot write the count to %s\n", out);
	if (fd >= 0)
		close(fd);
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++)
		if (strncmp(argv[i], "out=", 4) == 0)
			out = argv[i] + 4;
	if (!out || out[0] != '/') {
		fprintf(stderr, "qinsn: needs out=ABSOLUTE_PATH (the program may change "
			"directory)\n");
		return 1;
	}
	qemu_plugin_register_vcpu_init_cb(id, vcpu_started);
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, finished, NULL);
	return 0;
}
