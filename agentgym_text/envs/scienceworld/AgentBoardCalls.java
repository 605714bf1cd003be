package agentgymtext.scienceworld;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import main.scala.scienceworld.runtime.SimplifierProcessor$;

import language.model.ActionExpr;
import language.model.ActionExprObject;
import scienceworld.actions.PossibleAction;
import scienceworld.input.ActionDefinitions;
import scienceworld.input.InputParser;
import scienceworld.objects.portal.Portal;
import scienceworld.runtime.AgentInterface;
import scienceworld.runtime.pythonapi.PythonInterface;
import scienceworld.struct.EnvObject;

/**
 * One AgentBoard step of ScienceWorld in one call: the calls scienceworld's Python {@code ScienceWorldEnv.step}
 * makes, then AgentBoard's validity listing ({@code getValidActionObjectCombinationsJSON}).
 *
 * <p>{@code step} lists the action-object combinations once, unread, and AgentBoard lists them again. The only
 * lasting effect of a listing is what its two {@code InputParser.chooseUniqueReferents} runs (the visible objects,
 * then every object) draw from the simulator's global {@code scala.util.Random}, which the world's bees and the
 * next listing's names also draw from. Between the two listings nothing changes but that generator, so the
 * objects and their referents are collected once, the unread listing is reduced to its draws, and the read
 * listing is built as the simulator builds it. The text and the generator's state end up as with the
 * simulator's own calls. Anything unusual (no world loaded, a pending "Ambiguous request", an object without a
 * referent) goes through the simulator's own calls instead.
 *
 * <p>Written for scienceworld 1.2.3 ({@code AgentInterface.getValidActionObjectCombinations[JSON]},
 * {@code InputParser.getAllUniqueReferentsObjList}); a new release needs this class checked against its source.
 */
public final class AgentBoardCalls {
    private static final int MAX_CACHED_REFERENTS = 1 << 13;  // every shipped task's gold path needs ~2,000
    private static final java.lang.reflect.Field TEMPLATE_ID = templateIdField();
    private static final int MAX_CACHED_NAMINGS = 1 << 8;  // each, and look-up tables: a step uses two and one

    /**
     * Sorted referents by what {@code EnvObject.getReferentsWithContainers} reads: the object's referents (a
     * portal's as seen from the room) and its container's. The method is a pure function of those two sets, so an
     * object whose names and container's names are unchanged since an earlier listing gets the same array.
     */
    private final ConcurrentHashMap<List<Object>, String[]> referentsByNames = new ConcurrentHashMap<>();

    private volatile boolean ownCollection = true;
    private volatile boolean ownCollectionChecked = false;

    /** Namings by the referent arrays they were made of (the same arrays, from {@code referentsByNames}). */
    private final ConcurrentHashMap<SameObjects, Naming> namings = new ConcurrentHashMap<>();

    private final ConcurrentHashMap<SameObjects, scala.collection.immutable.Map<Object, String>> lookUpTables =
        new ConcurrentHashMap<>();

    public AgentBoardCalls() {}

    private static java.lang.reflect.Field templateIdField() {
        try {
            java.lang.reflect.Field field = PossibleAction.class.getDeclaredField("templateID");
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException error) {
            throw new IllegalStateException(error);
        }
    }

    /**
     * The step; returns score, completion, the observation's length in code points, each ending in a tab, then
     * the observation and the listing (see {@code rows}).
     */
    public String stepThenList(PythonInterface sim, String command) {
        String observation = sim.step(command);
        double score = sim.getScore();
        boolean completed = sim.getCompleted();
        sim.getNumMoves();
        sim.freeActionLook();
        sim.freeActionInventory();
        sim.freeActionTaskDesc();
        String listing = twoListings(sim);
        return score + "\t" + completed + "\t" + observation.codePointCount(0, observation.length()) + "\t"
            + observation + listing;
    }

    private String twoListings(PythonInterface sim) {
        AgentInterface world = listable(sim);
        if (world == null) {
            sim.getValidActionObjectCombinations();
            return sim.getValidActionObjectCombinationsJSON();
        }
        EnvObject room = world.getAgentVisibleObjects(false)._2();
        ObjectSet.Tree tree = new ObjectSet.Tree();
        EnvObject[] visible = collectObjects(room, false, tree);
        EnvObject[] everything = collectObjects(world.universe(), true, tree);
        StateReferents state = new StateReferents(room, everything.length);
        String[][] allNames = referents(everything, state);
        String[][] visibleNames = allNames == null ? null : referents(visible, state);
        if (visibleNames == null || allNames == null) {
            sim.getValidActionObjectCombinations();
            return sim.getValidActionObjectCombinationsJSON();
        }
        Naming visibleNaming = naming(visibleNames);
        Naming allNaming = naming(allNames);
        visibleNaming.choose();  // the unread listing: its draws only
        allNaming.choose();
        scala.collection.immutable.Map<Object, String> visibleLut = cachedLookUpTable(visible, visibleNaming.choose());
        String[] allChosen = allNaming.choose();
        // the table of all objects serves only the teleport action (its draws are made all the same)
        scala.collection.immutable.Map<Object, String> allLut = SimplifierProcessor$.MODULE$.isSimplificationEnabled(
            SimplifierProcessor$.MODULE$.SIMPLIFICATION_TELEPORT_ACTION())
            ? cachedLookUpTable(everything, allChosen)
            : scala.collection.immutable.Map$.MODULE$.<Object, String>empty();
        PossibleAction[] actions =
            ActionDefinitions.mkPossibleActions(world.agent(), visible, everything, visibleLut, allLut);
        return rows(actions);
    }

    /**
     * The listing as lines: the number of actions, each action, then for each action its template id, object ids
     * and type ids (tab-separated). Written as {@code PossibleAction.toTemplate} makes them (the words' examples
     * joined by spaces; ids cut to int), without its lists. Where an action holds a line break, the simulator's
     * JSON instead.
     */
    private static String rows(PossibleAction[] actions) {
        StringBuilder text = new StringBuilder(32 * actions.length).append(actions.length);
        StringBuilder ids = new StringBuilder(32 * actions.length);
        StringBuilder types = new StringBuilder();
        for (PossibleAction each : actions) {
            text.append('\n');
            ids.append('\n').append(templateId(each)).append('\t');
            types.setLength(0);
            ActionExpr[] words = each.sequence();
            for (int i = 0; i < words.length; i++) {
                if (i > 0) {
                    text.append(' ');
                }
                String word = words[i].mkHumanReadableExample();
                if (word.indexOf('\n') >= 0) {
                    return json(actions);
                }
                text.append(word);
                if (words[i] instanceof ActionExprObject) {
                    EnvObject object = ((ActionExprObject) words[i]).obj();
                    if (types.length() > 0) {
                        ids.append(',');
                        types.append(',');
                    }
                    ids.append((int) object.uuid());
                    types.append((int) object.typeID());
                }
            }
            ids.append('\t').append(types);
        }
        return text.append(ids).toString();
    }

    private static int templateId(PossibleAction action) {
        try {
            return TEMPLATE_ID.getInt(action);
        } catch (IllegalAccessException error) {
            throw new IllegalStateException(error);
        }
    }

    private static String json(PossibleAction[] actions) {
        StringBuilder json = new StringBuilder("{\"validActions\": [");
        for (int i = 0; i < actions.length; i++) {
            if (i > 0) {
                json.append(',');
            }
            json.append(actions[i].toTemplate().toJSON());
        }
        return json.append("]}").toString();
    }

    private Naming naming(String[][] referents) {
        int hash = referents.length;
        for (String[] each : referents) {
            hash = 31 * hash + each.length;
        }
        return cached(namings, new SameObjects(referents, hash), () -> new Naming(referents));
    }

    /** {@code lookUpTable}, kept by the objects and names it was made of. */
    private scala.collection.immutable.Map<Object, String> cachedLookUpTable(EnvObject[] objects, String[] names) {
        Object[] items = new Object[2 * objects.length];
        int hash = objects.length;
        for (int i = 0; i < objects.length; i++) {
            items[2 * i] = objects[i];
            items[2 * i + 1] = names[i];
            hash = 31 * hash + names[i].hashCode();
        }
        return cached(lookUpTables, new SameObjects(items, hash), () -> lookUpTable(objects, names));
    }

    private static <V> V cached(ConcurrentHashMap<SameObjects, V> cache, SameObjects key, Supplier<V> make) {
        V value = cache.get(key);
        if (value == null) {
            value = make.get();
            if (cache.size() >= MAX_CACHED_NAMINGS) {
                cache.clear();
            }
            cache.put(key, value);
        }
        return value;
    }

    /**
     * Equal when they hold the same objects, element by element (identity hashes are all one here, so the hash is
     * the caller's, made of what those objects hold).
     */
    private static final class SameObjects {
        private final Object[] items;
        private final int hash;

        SameObjects(Object[] items, int hash) {
            this.items = items;
            this.hash = hash;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object other) {
            if (!(other instanceof SameObjects) || ((SameObjects) other).hash != hash) {
                return false;
            }
            Object[] theirs = ((SameObjects) other).items;
            if (theirs.length != items.length) {
                return false;
            }
            for (int i = 0; i < items.length; i++) {
                if (theirs[i] != items[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * {@code InputParser.collectObjects} as an array in the set's order. The simulator's sets of objects cost time
     * quadratic in their size here (every identity hash is the same, see {@code JVM_OPTIONS}); {@code ObjectSet}
     * gives the same order in linear time. The first collection in each JVM is checked against the simulator's,
     * and a difference (another Scala library, an object with a hash of its own) turns it off.
     */
    private EnvObject[] collectObjects(EnvObject root, boolean includeHidden, ObjectSet.Tree tree) {
        if (!ownCollection) {
            return asArray(InputParser.collectObjects(root, includeHidden));
        }
        EnvObject[] ours = ObjectSet.collect(root, includeHidden, tree);
        if (!ownCollectionChecked) {
            EnvObject[] theirs = asArray(InputParser.collectObjects(root, includeHidden));
            ownCollection = ours != null && Arrays.equals(ours, theirs);
            ownCollectionChecked = true;
            return theirs;
        }
        return ours != null ? ours : asArray(InputParser.collectObjects(root, includeHidden));
    }

    /**
     * Whether {@code ObjectSet} collects the current state's objects as the simulator does (both collections a
     * listing makes); for tests.
     */
    public boolean collectsAsTheSimulator(PythonInterface sim) {
        AgentInterface world = listable(sim);
        if (world == null) {
            return false;
        }
        EnvObject room = world.getAgentVisibleObjects(false)._2();
        ObjectSet.Tree tree = new ObjectSet.Tree();
        return Arrays.equals(ObjectSet.collect(room, false, tree), asArray(InputParser.collectObjects(room, false)))
            && Arrays.equals(
                ObjectSet.collect(world.universe(), true, tree),
                asArray(InputParser.collectObjects(world.universe(), true)));
    }

    /** The loaded world, or null where the simulator's own listing would take another branch. */
    private static AgentInterface listable(PythonInterface sim) {
        if (sim.agentInterface().isEmpty() || sim.agent().isEmpty()) {
            return null;
        }
        AgentInterface world = sim.agentInterface().get();
        if (world.inputParser().isInAmbiguousState() || world.agent().getContainer().isEmpty()) {
            return null;
        }
        return world;
    }

    @SuppressWarnings("unchecked")
    private static EnvObject[] asArray(scala.collection.mutable.Set<EnvObject> objects) {
        // the set's own toArray, so the order is the simulator's
        scala.reflect.ClassTag<Object> tag = (scala.reflect.ClassTag<Object>) (Object)
            scala.reflect.ClassTag$.MODULE$.apply(EnvObject.class);
        return (EnvObject[]) objects.toArray(tag);
    }

    /** What the referents of one state are read from; the state does not change while a listing is made. */
    private static final class StateReferents {
        final EnvObject room;
        final HashMap<Long, String[]> sorted;
        final HashMap<Long, scala.collection.immutable.Set<String>> own;

        StateReferents(EnvObject room, int objects) {
            this.room = room;
            sorted = new HashMap<>(2 * objects);
            own = new HashMap<>(2 * objects);
        }

        /** {@code getReferents()}, once per object and state (a container's are read for each thing in it). */
        scala.collection.immutable.Set<String> own(EnvObject object) {
            return own.computeIfAbsent(object.uuid(), id -> object.getReferents());
        }
    }

    /**
     * Each object's referents seen from the room, sorted, as {@code getAllUniqueReferentsObjList} lists them; null
     * when one has none.
     */
    private String[][] referents(EnvObject[] objects, StateReferents state) {
        String[][] names = new String[objects.length][];
        for (int i = 0; i < objects.length; i++) {
            EnvObject object = objects[i];
            String[] sorted = state.sorted.computeIfAbsent(object.uuid(), id -> referents(object, state));
            if (sorted.length == 0) {
                return null;
            }
            names[i] = sorted;
        }
        return names;
    }

    private String[] referents(EnvObject object, StateReferents state) {
        scala.collection.immutable.Set<String> own =
            object instanceof Portal ? ((Portal) object).getReferents(state.room) : state.own(object);
        scala.Option<EnvObject> container = object.getContainer();
        Object containers = container.isDefined() ? state.own(container.get()) : null;
        List<Object> key = Arrays.asList(own, containers);
        String[] sorted = referentsByNames.get(key);
        if (sorted != null) {
            return sorted;
        }
        scala.collection.immutable.Set<String> set = object.getReferentsWithContainers(state.room);
        sorted = new String[set.size()];
        scala.collection.Iterator<String> each = set.iterator();
        for (int k = 0; each.hasNext(); k++) {
            sorted[k] = each.next();
        }
        Arrays.sort(sorted);
        if (referentsByNames.size() >= MAX_CACHED_REFERENTS) {
            referentsByNames.clear();
        }
        referentsByNames.put(key, sorted);
        return sorted;
    }

    /** Object id to lower-case name, written in name order as {@code getAllUniqueReferentsLUTObjList} does. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static scala.collection.immutable.Map<Object, String> lookUpTable(EnvObject[] objects, String[] names) {
        Integer[] order = new Integer[objects.length];
        String[] lower = new String[objects.length];
        for (int i = 0; i < objects.length; i++) {
            order[i] = i;
            lower[i] = names[i].toLowerCase();
        }
        Arrays.sort(order, Comparator.comparing(i -> lower[i]));  // stable, as Scala's sortBy
        scala.collection.immutable.Map table = scala.collection.immutable.Map$.MODULE$.empty();
        for (Integer i : order) {
            table = table.updated(Long.valueOf(objects[i].uuid()), lower[i]);
        }
        return (scala.collection.immutable.Map<Object, String>) table;
    }
}
