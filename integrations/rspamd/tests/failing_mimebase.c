/* A libmimebase whose every analysis fails with MIMEBASE_ERROR_INTERNAL, as a panic caught at
 * the boundary of the real library would: the tests load it in place of libmimebase to show that
 * the rspamd module then scans the message without mimebase (with a log line and
 * MIMEBASE_FAIL), never failing it. Options behave as in the real library, for the module's
 * start-up; no report is ever made. */

#include <stdlib.h>

#include "mimebase.h"

const char *mimebase_version(void) { return "failing-test-double"; }

struct mimebase_options {
  int unused;
};

mimebase_options *mimebase_options_new(void) { return calloc(1, sizeof(mimebase_options)); }

void mimebase_options_free(mimebase_options *options) { free(options); }

mimebase_status mimebase_options_set(mimebase_options *options, const char *name, size_t name_len,
                                     const char *value, size_t value_len) {
  (void)name_len;
  (void)value_len;
  if (options == NULL || name == NULL || value == NULL) {
    return MIMEBASE_ERROR_NULL;
  }
  return MIMEBASE_OK;
}

mimebase_str mimebase_options_error(const mimebase_options *options) {
  (void)options;
  mimebase_str none = {NULL, 0};
  return none;
}

mimebase_status mimebase_analyze(const uint8_t *bytes, size_t len, const mimebase_options *options,
                                 mimebase_report **out) {
  (void)bytes;
  (void)len;
  (void)options;
  if (out != NULL) {
    *out = NULL;
  }
  return MIMEBASE_ERROR_INTERNAL;
}

void mimebase_report_free(mimebase_report *report) { (void)report; }

int mimebase_report_complete(const mimebase_report *report) {
  (void)report;
  return 0;
}

size_t mimebase_report_url_count(const mimebase_report *report) {
  (void)report;
  return 0;
}

mimebase_status mimebase_report_url(const mimebase_report *report, size_t index, mimebase_url *out) {
  (void)report;
  (void)index;
  (void)out;
  return MIMEBASE_ERROR_INVALID;
}
