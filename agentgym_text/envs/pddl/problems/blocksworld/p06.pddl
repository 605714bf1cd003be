(define (problem blocksworld-p06)
  (:domain blocks)
  (:objects
    b1 b2 b3 b4 b5
  )
  (:init
    (clear b1)
    (clear b2)
    (clear b3)
    (clear b4)
    (clear b5)
    (ontable b1)
    (ontable b2)
    (ontable b3)
    (ontable b4)
    (ontable b5)
    (handempty)
  )
  (:goal (and
    (on b5 b2)
    (ontable b3)
    (ontable b4)
  ))
)
