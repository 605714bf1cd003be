package agentgymtext.scienceworld;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

import scienceworld.objects.portal.Portal;
import scienceworld.struct.EnvObject;

/**
 * A {@code scala.collection.mutable.HashSet} of objects that all have one hash code, modelled: such a set's
 * open-addressing table holds its elements in one run of slots from the hash's home slot, in the order they
 * were added, wrapping at the end; growing the table adds them again in slot order. Membership is by
 * {@code uuid} ({@code EnvObject.equals}). Iteration goes through the slots, as the set's does.
 */
final class ObjectSet {
    private static final int LOAD_FACTOR = 450;  // FlatHashTable's defaults
    private static final int INITIAL_SLOTS = 32;

    private final int hash;
    private final Tree tree;
    private final java.util.HashSet<Long> ids = new java.util.HashSet<>();
    private EnvObject[] slots = new EnvObject[INITIAL_SLOTS];
    private int size;

    private ObjectSet(int hash, Tree tree) {
        this.hash = hash;
        this.tree = tree;
    }

    /**
     * What the collections of one state read of the object tree, read once (a listing collects the room's objects,
     * then the world's, which walks the room again).
     */
    static final class Tree {
        private final HashMap<Long, EnvObject[]> contents = new HashMap<>();
        private final HashMap<Long, EnvObject[]> portals = new HashMap<>();

        /** {@code getContainedObjectsAndPortals()}, in its order. */
        EnvObject[] contents(EnvObject object) {
            return contents.computeIfAbsent(object.uuid(), id -> {
                List<EnvObject> out = new ArrayList<>();
                scala.collection.Iterator<EnvObject> each =
                    object.getContainedObjectsAndPortals(object.getContainedObjectsAndPortals$default$1()).iterator();
                while (each.hasNext()) {
                    out.add(each.next());
                }
                return out.toArray(new EnvObject[0]);
            });
        }

        /** {@code getPortals()} in its order, each followed by where it leads from the object (null: nowhere). */
        EnvObject[] portals(EnvObject object) {
            return portals.computeIfAbsent(object.uuid(), id -> {
                List<EnvObject> out = new ArrayList<>();
                scala.collection.Iterator<Portal> each =
                    object.getPortals(object.getPortals$default$1()).iterator();
                while (each.hasNext()) {
                    Portal portal = each.next();
                    scala.Option<EnvObject> destination = portal.getConnectsTo(object);
                    out.add(portal);
                    out.add(destination.isDefined() ? destination.get() : null);
                }
                return out.toArray(new EnvObject[0]);
            });
        }
    }

    /** {@code InputParser.collectObjects(root, includeHidden)} in its order; null if a hash differs. */
    static EnvObject[] collect(EnvObject root, boolean includeHidden, Tree tree) {
        ObjectSet set = new ObjectSet(root.hashCode(), tree);
        return set.addTree(root, includeHidden) ? set.toArray() : null;
    }

    private boolean addTree(EnvObject root, boolean includeHidden) {
        if (includeHidden || !root.isHidden()) {
            if (!add(root)) {
                return false;
            }
        }
        EnvObject[] portals = tree.portals(root);
        for (int i = 0; i < portals.length; i += 2) {
            if (!add(portals[i]) || portals[i + 1] != null && !add(portals[i + 1])) {
                return false;
            }
        }
        if (includeHidden || !root.isHidden()) {
            for (EnvObject each : tree.contents(root)) {
                ObjectSet child = new ObjectSet(hash, tree);
                if (!child.addTree(each, includeHidden)) {
                    return false;
                }
                for (EnvObject collected : child.toArray()) {
                    add(collected);
                }
            }
        }
        return true;
    }

    /** False when the object's hash is not the set's (the model would not hold). */
    private boolean add(EnvObject object) {
        if (object.hashCode() != hash) {
            return false;
        }
        if (ids.add(object.uuid())) {
            place(object);
        }
        return true;
    }

    private void place(EnvObject object) {
        slots[(home(slots.length) + size) % slots.length] = object;
        size++;
        if (size >= (int) ((long) slots.length * LOAD_FACTOR / 1000)) {
            EnvObject[] old = slots;
            slots = new EnvObject[old.length * 2];
            size = 0;
            for (EnvObject each : old) {
                if (each != null) {
                    place(each);
                }
            }
        }
    }

    /** FlatHashTable.index: the hash improved with the table's seed (the bits of its size), its top bits. */
    private int home(int length) {
        int ones = length - 1;
        int improved = scala.util.hashing.package$.MODULE$.byteswap32(hash);
        int rotation = Integer.bitCount(ones) % 32;
        int rotated = (improved >>> rotation) | (improved << (32 - rotation));
        return (rotated >>> (32 - Integer.bitCount(ones))) & ones;
    }

    EnvObject[] toArray() {
        EnvObject[] out = new EnvObject[size];
        int k = 0;
        for (EnvObject each : slots) {
            if (each != null) {
                out[k++] = each;
            }
        }
        return out;
    }
}
