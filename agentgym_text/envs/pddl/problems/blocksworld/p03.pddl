(define (problem blocksworld-p03)
  (:domain blocks)
  (:objects
    b1 b2 b3 b4
  )
  (:init
    (clear b1)
    (clear b2)
    (clear b4)
    (on b2 b3)
    (ontable b1)
    (ontable b3)
    (ontable b4)
    (handempty)
  )
  (:goal (and
    (on b1 b4)
    (on b3 b1)
  ))
)
