// The RavenDB side of the differential suite: RavenDB's own server code (ShardHelper,
// ShardingStore, JsonDeserializationCluster, ClientShardHelper), called on the records and IDs
// that oracle.py generates. oracle.py compiles this file with the Roslyn that ships inside the
// RavenDB server package and calls it through pythonnet; nothing here is reimplemented: every
// answer comes from a server method, the glue only moves data in and out.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Text;
using Raven.Client.ServerWide;
using Raven.Client.ServerWide.Sharding;
using Raven.Server.Documents;
using Raven.Server.Utils;
using Sparrow.Json;
using Sparrow.Server;
using Sparrow.Threading;

[assembly: System.Runtime.CompilerServices.IgnoresAccessChecksTo("Raven.Server")]
[assembly: System.Runtime.CompilerServices.IgnoresAccessChecksTo("Raven.Client")]
[assembly: System.Runtime.CompilerServices.IgnoresAccessChecksTo("Sparrow")]

namespace System.Runtime.CompilerServices
{
    /// Read by the runtime: this assembly may call the named assemblies' internal members.
    [AttributeUsage(AttributeTargets.Assembly, AllowMultiple = true)]
    public sealed class IgnoresAccessChecksToAttribute : Attribute
    {
        public IgnoresAccessChecksToAttribute(string assemblyName) => AssemblyName = assemblyName;

        public string AssemblyName { get; }
    }
}

public static class Oracle
{
    const BindingFlags Any = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static | BindingFlags.Instance;
    static readonly List<DatabaseRecord> Records = new();
    static ByteStringContext bytes;
    static Assembly server, client;

    /// The server's culture (Program.UseOnlyInvariantCultureInRavenDB) and its assemblies.
    public static string Init()
    {
        CultureInfo.DefaultThreadCurrentCulture = CultureInfo.InvariantCulture;
        CultureInfo.DefaultThreadCurrentUICulture = CultureInfo.InvariantCulture;
        CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        CultureInfo.CurrentUICulture = CultureInfo.InvariantCulture;
        bytes = new ByteStringContext(SharedMultipleUseFlag.None);
        server = typeof(ShardHelper).Assembly;
        client = typeof(DatabaseRecord).Assembly;
        return Globalization();
    }

    /// Whether this runtime compares strings with ICU or in invariant-globalization mode.
    public static string Globalization()
    {
        var mode = typeof(object).Assembly.GetType("System.Globalization.GlobalizationMode");
        var invariant = mode?.GetProperty("Invariant", Any)?.GetValue(null);
        var icu = typeof(object).Assembly.GetType("Interop+Globalization")?.GetMethod("GetICUVersion", Any);
        var version = icu == null || true.Equals(invariant) ? 0 : (int)icu.Invoke(null, null);
        var v = $"{version >> 24}.{(version >> 16) & 0xff}";
        return $"{System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}, " +
               (true.Equals(invariant) ? "invariant globalization (ordinal comparisons)" : $"ICU {v}") +
               $", Raven.Server {server.GetName().Version}";
    }

    /// Reads a database record (an object with "Sharding") or a bare ShardingConfiguration with
    /// RavenDB's own deserializer; a record without bucket ranges goes through the server's
    /// creation step (ShardingStore.FillShardingConfiguration). Returns a handle, or throws with
    /// the server's message.
    public static int Load(string json)
    {
        using var context = JsonOperationContext.ShortTermSingleUse();
        using var stream = new MemoryStream(Encoding.UTF8.GetBytes(json));
        var blittable = context.ReadForMemoryAsync(stream, "record").AsTask().Result;
        var cluster = server.GetType("Raven.Server.ServerWide.JsonDeserializationCluster", true);
        DatabaseRecord record;
        if (blittable.TryGetMember("Sharding", out _))
        {
            var read = (Func<BlittableJsonReaderObject, DatabaseRecord>)cluster.GetField("DatabaseRecord", Any).GetValue(null);
            record = read(blittable);
        }
        else
        {
            var read = (Func<BlittableJsonReaderObject, ShardingConfiguration>)cluster.GetField("ShardingConfiguration", Any).GetValue(null);
            record = new DatabaseRecord("db") { Sharding = read(blittable) };
        }
        record.DatabaseName ??= "db";
        if (record.Sharding.BucketRanges == null || record.Sharding.BucketRanges.Count == 0)
            Create(record);
        Records.Add(record);
        return Records.Count - 1;
    }

    /// The server's own creation step, on a store that is never started: the orchestrator and
    /// every shard are given their nodes first, so that no cluster is asked for them.
    static void Create(DatabaseRecord record)
    {
        var sharding = record.Sharding;
        sharding.Orchestrator ??= new OrchestratorConfiguration();
        sharding.Orchestrator.Topology ??= new OrchestratorTopology();
        Lists(sharding.Orchestrator.Topology);
        if (sharding.Orchestrator.Topology.Count == 0)
            sharding.Orchestrator.Topology.Members.Add("A");
        foreach (var shard in sharding.Shards.Values)
        {
            Lists(shard);
            if (shard.Count == 0)
                shard.Members.Add("A");
            shard.ReplicationFactor = shard.Count;
        }
        var storeType = server.GetType("Raven.Server.ServerWide.ShardingStore", true);
        var store = RuntimeHelpers.GetUninitializedObject(storeType);
        var fill = storeType.GetMethod("FillShardingConfiguration", Any);
        var topology = new Raven.Client.Http.ClusterTopology();
        foreach (var (name, value) in new[] { ("Members", "http://127.0.0.1:8080"), ("Promotables", null), ("Watchers", null) })
        {
            var nodes = new Dictionary<string, string>();
            if (value != null)
                nodes["A"] = value;
            typeof(Raven.Client.Http.ClusterTopology).GetProperty(name, Any).SetValue(topology, nodes);
        }
        var args = fill.GetParameters().Length == 4
            ? new object[] { record, topology, null, false }
            : new object[] { record, topology, null };
        Invoke(fill, store, args);
    }

    /// A server method called by reflection, its own exception rethrown as it was.
    static object Invoke(MethodInfo method, object target, object[] args)
    {
        try
        {
            return method.Invoke(target, args);
        }
        catch (TargetInvocationException e)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(e.InnerException).Throw();
            throw;
        }
    }

    static void Lists(DatabaseTopology t)
    {
        t.Members ??= new List<string>();
        t.Promotables ??= new List<string>();
        t.Rehabs ??= new List<string>();
    }

    /// What RavenDB read: shards, ranges and prefixes, as one JSON line.
    public static string Describe(int handle)
    {
        var s = Records[handle].Sharding;
        var shards = string.Join(",", s.Shards.Keys);
        var ranges = string.Join(",", s.BucketRanges.Select(r => $"[{r.BucketRangeStart},{r.ShardNumber}]"));
        var prefixes = string.Join(",", (s.Prefixed ?? new List<PrefixedShardingSetting>()).Select(p =>
            $"[{Quote(p.Prefix)},{Start(p)},[{string.Join(",", p.Shards)}]]"));
        return $"{{\"shards\":[{shards}],\"ranges\":[{ranges}],\"prefixes\":[{prefixes}]}}";
    }

    static int Start(PrefixedShardingSetting p) =>
        (int)typeof(PrefixedShardingSetting).GetProperty("BucketRangeStart", Any).GetValue(p);

    static string Quote(string s)
    {
        var b = new StringBuilder("\"");
        foreach (var c in s)
            b.Append(c switch { '"' => "\\\"", '\\' => "\\\\", < ' ' => $"\\u{(int)c:x4}", _ => c.ToString() });
        return b.Append('"').ToString();
    }

    /// The record as RavenDB's client writes it (DocumentConventions' serializer, as
    /// CreateDatabaseOperation sends it).
    public static string Write(int handle)
    {
        using var context = JsonOperationContext.ShortTermSingleUse();
        var conventions = typeof(Raven.Client.Documents.Conventions.DocumentConventions).GetField("DefaultForServer", Any).GetValue(null);
        var serialization = conventions.GetType().GetProperty("Serialization", Any).GetValue(conventions);
        var converter = client.GetType("Raven.Client.Json.Serialization.ISerializationConventions", true)
            .GetProperty("DefaultConverter", Any).GetValue(serialization);
        var toBlittable = converter.GetType().GetInterfaces().Append(converter.GetType()).SelectMany(t => t.GetMethods(Any))
            .First(m => m.Name.EndsWith("ToBlittable") && m.GetParameters().Length == 2 && m.GetParameters()[0].ParameterType == typeof(object));
        return toBlittable.Invoke(converter, new object[] { Records[handle], context }).ToString();
    }

    /// (bucket, shard) of each ID (IDs joined by U+FFFF) by ShardHelper.GetShardNumberAndBucketFor,
    /// as the orchestrator routes it, if the shard can store it (DocumentIdWorker's storage
    /// key, which refuses a non-ASCII ID over 512 bytes that the routing hashes); -1 and the
    /// server's message when either throws.
    public static int[] Place(int handle, string joined, List<string> errors)
    {
        var config = Records[handle].Sharding;
        var ids = joined.Split('\uffff');
        var answers = new int[ids.Length * 2];
        for (var i = 0; i < ids.Length; i++)
        {
            try
            {
                var (shard, bucket) = ShardHelper.GetShardNumberAndBucketFor(config, bytes, ids[i]);
                answers[2 * i] = bucket;
                answers[2 * i + 1] = shard;
                // The orchestrator routes it; the shard must also be able to store it.
                using (DocumentIdWorker.GetLowerIdSliceAndStorageKey(bytes, ids[i], out _, out _))
                {
                }
            }
            catch (Exception e)
            {
                answers[2 * i] = answers[2 * i + 1] = -1;
                errors.Add($"{i}\t{e.GetType().Name}: {e.Message}");
            }
        }
        return answers;
    }

    /// ClientShardHelper.FindBucketShard over the record's ranges, for each bucket.
    public static int[] FindShards(int handle, int[] buckets)
    {
        var ranges = Records[handle].Sharding.BucketRanges;
        var find = (Func<List<ShardBucketRange>, int, int>)client.GetType("Raven.Client.Util.ClientShardHelper", true)
            .GetMethod("FindBucketShard", Any).CreateDelegate(typeof(Func<List<ShardBucketRange>, int, int>));
        return buckets.Select(b => find(ranges, b)).ToArray();
    }

    /// ShardHelper.MoveBucket, as each bucket migration ends; the server's message if it throws.
    public static string Move(int handle, int bucket, int toShard)
    {
        try
        {
            ShardHelper.MoveBucket(Records[handle], bucket, toShard);
            return null;
        }
        catch (Exception e)
        {
            return $"{e.GetType().Name}: {e.Message}";
        }
    }

    /// ShardHelper.ValidateBucketsMapping, which MoveBucket runs after every move: null when
    /// the record passes, else the server's message.
    public static string Validate(int handle)
    {
        var validate = typeof(ShardHelper).GetMethod("ValidateBucketsMapping", Any);
        try
        {
            Invoke(validate, null, new object[] { Records[handle] });
            return null;
        }
        catch (Exception e)
        {
            return $"{e.GetType().Name}: {e.Message}";
        }
    }

    /// A new shard in the record, as adding a shard to the database does before any bucket
    /// moves to it.
    public static void AddShard(int handle, int shard)
    {
        var topology = new DatabaseTopology();
        Lists(topology);
        Records[handle].Sharding.Shards[shard] = topology;
    }

    /// ShardHelper.MoveBucket on each bucket of from..=to in turn, as a migration of that run
    /// moves them one bucket at a time; the server's message if one throws. `unchanged` gets
    /// "bucket\tshard" for each move that left the record's ranges as they were although
    /// ClientShardHelper.FindBucketShard gives the bucket another shard.
    public static string MoveRange(int handle, int from, int to, int toShard, List<string> unchanged)
    {
        IEnumerable<(int, int)> Ranges() => Records[handle].Sharding.BucketRanges.Select(r => (r.BucketRangeStart, r.ShardNumber));
        var before = new List<(int, int)>();
        for (var bucket = from; bucket <= to; bucket++)
        {
            before.Clear();
            before.AddRange(Ranges());
            var error = Move(handle, bucket, toShard);
            if (error != null)
                return $"bucket {bucket}: {error}";
            if (before.SequenceEqual(Ranges()))
            {
                var shard = FindShards(handle, new[] { bucket })[0];
                if (shard != toShard)
                    unchanged.Add($"{bucket}\t{shard}");
            }
        }
        return null;
    }

    /// A copy of the record (its sharding read back from the client's own writing), for a
    /// move tried without touching the original.
    public static int Copy(int handle) => Load(Write(handle));

    /// char.ToLowerInvariant of each UTF-16 unit, as DocumentIdWorker lowers a non-ASCII ID.
    public static string LowerInvariant(string text) =>
        new string(text.Select(char.ToLowerInvariant).ToArray());

    /// The IDs the orchestrator makes for `users/` (ShardHelper.GenerateStickyId) and the ID
    /// GetShardNumberAndBucketForIdentity routes by (the sticky ID without its last two
    /// characters), joined by U+FFFF.
    public static string Sticky(string joined)
    {
        var made = joined.Split('\uffff').Select(id =>
        {
            var sticky = ShardHelper.GenerateStickyId(id, id[^1]);
            return sticky + "\uffff" + sticky.Substring(0, sticky.Length - 2);
        });
        return string.Join("\uffff", made);
    }

    /// The prefixes in the order the server's creation step stores them
    /// (ShardingStore.FillPrefixedSharding on a configuration of one shard).
    public static string Order(string joined)
    {
        var config = new ShardingConfiguration
        {
            Shards = new Dictionary<int, DatabaseTopology> { [0] = new DatabaseTopology() },
            BucketRanges = new List<ShardBucketRange> { new() { ShardNumber = 0, BucketRangeStart = 0 } },
            Prefixed = joined.Split('\uffff').Select(p => new PrefixedShardingSetting { Prefix = p, Shards = new List<int> { 0 } }).ToList(),
        };
        var fill = server.GetType("Raven.Server.ServerWide.ShardingStore", true).GetMethod("FillPrefixedSharding", Any);
        Invoke(fill, null, new object[] { config });
        return string.Join("\uffff", config.Prefixed.Select(p => p.Prefix));
    }
}
