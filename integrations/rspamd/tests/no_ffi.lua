-- Makes `require "ffi"` fail, as in an rspamd built with PUC Lua instead of LuaJIT: run by the
-- tests (a top-level `lua = "..."` line) before the plugins load.
package.loaded.ffi = nil
package.preload.ffi = function()
  error('no FFI library in this Lua (test)', 0)
end
