"""Cache hints for the compiled kernels, written in LLVM IR (Numba intrinsics).

``prefetch(array, index)`` hints the CPU to load the cache line of ``array[index]``;
``prefetch_row(flat, row, d, line)`` every line of a row of a C-ordered matrix (``flat`` its
``reshape(-1)``, ``line`` the entries in a cache line). Neither changes a result. Used by the
core's sweeps (:mod:`perceptronlab.core.kernels`) and the family's loops.
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

__all__ = ["prefetch", "prefetch_row"]


@intrinsic
def prefetch(typingctx, array, index):
    """Hint the CPU to load the cache line holding ``array[index]`` (no effect on results)."""
    signature = types.void(array, index)

    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        pointer = builder.gep(ary.data, [args[1]])
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        module = builder.module
        fn = module.globals.get("llvm.prefetch.p0i8")
        if fn is None:
            fn = ir.Function(
                module,
                ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32]),
                name="llvm.prefetch.p0i8",
            )
        builder.call(
            fn,
            [
                builder.bitcast(pointer, byte_ptr),
                ir.Constant(i32, 0),
                ir.Constant(i32, 3),
                ir.Constant(i32, 1),
            ],
        )
        return context.get_dummy_value()

    return signature, codegen


@njit(cache=True, nogil=True, inline="always")
def prefetch_row(flat, row, d, line):
    """Prefetch every cache line of row ``row`` of a C-ordered (·, d) matrix whose flat view is ``flat``."""
    base = row * d
    for j in range(0, d, line):
        prefetch(flat, base + j)
