"""A package's names read from its modules when first asked for (PEP 562), so that importing the
package costs only the modules a caller uses (``workbench format``'s start-up, issue 25)."""


def lazy_names(package: str, where: dict[str, str], namespace: dict):
    """The module ``__getattr__`` of ``package``: ``where`` maps each lazy name to the submodule
    holding it; the first lookup imports that submodule and keeps the value in ``namespace``
    (the package's globals), so later lookups never come back here."""
    def __getattr__(name: str):
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value
    return __getattr__
