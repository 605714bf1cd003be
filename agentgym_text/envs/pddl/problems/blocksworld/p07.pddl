(define (problem blocksworld-p07)
  (:domain blocks)
  (:objects
    b1 b2 b3 b4 b5
  )
  (:init
    (clear b1)
    (clear b3)
    (clear b4)
    (clear b5)
    (on b3 b2)
    (ontable b1)
    (ontable b2)
    (ontable b4)
    (ontable b5)
    (handempty)
  )
  (:goal (and
    (on b2 b5)
    (on b5 b1)
    (ontable b1)
    (ontable b3)
  ))
)
